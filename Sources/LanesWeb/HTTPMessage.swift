import LanesPlatform
/// A parsed HTTP/1.1 request line and headers. The server reads no request body: it is read-only.
public struct HTTPRequest: Sendable {
    public let method: String
    /// The decoded path, without the query.
    public let path: String
    public let query: [String: String]
    /// Header names in lower case.
    public let headers: [String: String]

    public init(method: String, path: String, query: [String: String] = [:], headers: [String: String] = [:]) {
        self.method = method
        self.path = path
        self.query = query
        self.headers = headers
    }

    /// Parses the head of a request (up to the blank line); nil when it is malformed or its path
    /// does not decode to something safe (a `..` segment, a NUL, a backslash, invalid percent-encoding).
    public static func parse(head: String) -> HTTPRequest? {
        var lines = head.split(separator: "\r\n", omittingEmptySubsequences: false).map(String.init)
        guard !lines.isEmpty else { return nil }
        let requestLine = lines.removeFirst().split(separator: " ", omittingEmptySubsequences: false)
        guard requestLine.count == 3, requestLine[2].hasPrefix("HTTP/1."), requestLine[1].hasPrefix("/") else { return nil }
        var headers: [String: String] = [:]
        for line in lines where !line.isEmpty {
            guard let colon = line.firstIndex(of: ":") else { return nil }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingSpaces
        }
        let target = requestLine[1]
        let pathPart = target.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
        guard let path = PercentDecoding.decode(String(pathPart[0]), plusIsSpace: false), RequestPath.isSafe(path) else { return nil }
        var query: [String: String] = [:]
        if pathPart.count == 2 {
            for pair in pathPart[1].split(separator: "&") {
                let parts = pair.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false)
                guard let key = PercentDecoding.decode(String(parts[0]), plusIsSpace: true),
                      let value = PercentDecoding.decode(parts.count == 2 ? String(parts[1]) : "", plusIsSpace: true)
                else { return nil }
                query[key] = value
            }
        }
        return HTTPRequest(method: String(requestLine[0]), path: path, query: query, headers: headers)
    }
}

/// What a handler answers: a whole body, or a stream the connection writes until it ends.
public struct HTTPResponse: Sendable {
    public enum Body: Sendable {
        case bytes([UInt8])
        /// Called with a writer that returns false once the client has gone; used for server-sent events.
        case stream(@Sendable (_ write: (String) -> Bool) -> Void)
    }

    public var status: Int
    public var headers: [(String, String)]
    public var body: Body

    public init(status: Int, contentType: String, body: [UInt8], headers: [(String, String)] = []) {
        self.status = status
        self.headers = [("Content-Type", contentType)] + headers
        self.body = .bytes(body)
    }

    public init(status: Int, contentType: String, stream: @escaping @Sendable (_ write: (String) -> Bool) -> Void) {
        self.status = status
        self.headers = [("Content-Type", contentType), ("Cache-Control", "no-store")]
        self.body = .stream(stream)
    }

    public static func html(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/html; charset=utf-8", body: Array(text.utf8))
    }

    public static func json(_ text: String, status: Int = 200) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "application/json; charset=utf-8", body: Array(text.utf8))
    }

    public static func text(_ text: String, status: Int) -> HTTPResponse {
        HTTPResponse(status: status, contentType: "text/plain; charset=utf-8", body: Array(text.utf8))
    }

    static func reason(_ status: Int) -> String {
        switch status {
        case 200: "OK"
        case 400: "Bad Request"
        case 401: "Unauthorized"
        case 404: "Not Found"
        case 405: "Method Not Allowed"
        case 431: "Request Header Fields Too Large"
        case 500: "Internal Server Error"
        default: "Status \(status)"
        }
    }
}

enum PercentDecoding {
    static func decode(_ text: String, plusIsSpace: Bool) -> String? { PercentEncoding.decode(text, plusIsSpace: plusIsSpace) }
}

enum RequestPath {
    /// A decoded path is safe when no segment is `.` or `..` and it holds no NUL or backslash:
    /// routes then never see a path that could name something outside what they serve.
    static func isSafe(_ path: String) -> Bool {
        guard path.hasPrefix("/"), !path.contains("\0"), !path.contains("\\") else { return false }
        return !path.split(separator: "/", omittingEmptySubsequences: false).contains { $0 == "." || $0 == ".." }
    }
}

extension StringProtocol {
    var trimmingSpaces: String {
        String(drop { $0 == " " || $0 == "\t" }.reversed().drop { $0 == " " || $0 == "\t" }.reversed())
    }
}
