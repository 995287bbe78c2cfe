/// What a request sends after its headers. File bodies are streamed from disk in blocks, so a
/// request's memory does not depend on its size.
public enum RequestBody: Sendable {
    case empty
    case bytes([UInt8])
    /// `length` bytes of the file at `path` from `offset`.
    case file(path: String, offset: Int64, length: Int64)

    public var length: Int64 {
        switch self {
        case .empty: 0
        case .bytes(let bytes): Int64(bytes.count)
        case .file(_, _, let length): length
        }
    }
}

public struct HTTPRequest: Sendable {
    public var method: String
    public var url: HTTPURL
    public var headers: [(name: String, value: String)]
    public var body: RequestBody
    /// Whether sending it twice does no more than sending it once, so a failure after it went out
    /// may be retried: GET, HEAD, PUT, DELETE and OPTIONS by default; a POST only when its API
    /// says so (S3's multipart calls, an OAuth token exchange). A POST that creates something
    /// (a release, a build upload) is not retried once it may have reached the server.
    public var isIdempotent: Bool
    /// The largest response body accepted: API answers are small, so 16 MiB unless the caller asked
    /// for a download (S3's GetObject), which sets its own.
    public var maximumResponseBody: Int = 16 << 20
    /// Whether a 307/308 is followed. Google's resumable uploads answer an unfinished upload with
    /// `308 Resume Incomplete` (no Location): their chunks set this to false and read the 308 themselves.
    public var followsRedirects = true

    public init(method: String, url: HTTPURL, headers: [(name: String, value: String)] = [], body: RequestBody = .empty,
                idempotent: Bool? = nil) {
        self.method = method
        self.url = url
        self.headers = headers
        self.body = body
        self.isIdempotent = idempotent ?? ["GET", "HEAD", "PUT", "DELETE", "OPTIONS"].contains(method)
    }

    package func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }
}

public struct HTTPResponse: Sendable {
    public let status: Int
    public let headers: [(name: String, value: String)]
    public let body: [UInt8]

    public init(status: Int, headers: [(name: String, value: String)], body: [UInt8]) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    public func header(_ name: String) -> String? {
        headers.first { $0.name.lowercased() == name.lowercased() }?.value
    }

    public var text: String { String(decoding: body, as: UTF8.self) }

    public var isSuccess: Bool { (200..<300).contains(status) }
}

/// A failure below HTTP: the connection could not be made, broke, or went quiet for too long.
public struct TransportError: Error, Sendable, CustomStringConvertible {
    /// `certificate`: the server's certificate was refused (trying again cannot help).
    /// `proxy`: the proxy variable is malformed, or the proxy refused (trying again cannot help).
    /// `redirect`: a redirect lanes does not follow.
    public enum Reason: Sendable { case resolve, connect, tls, certificate, reset, timeout, protocolViolation, cancelled, proxy, redirect }
    public let reason: Reason
    public let detail: String

    /// A refused certificate or a response beyond what the protocol allows stays so on another try.
    public var isRetryable: Bool { ![.certificate, .protocolViolation, .proxy, .redirect].contains(reason) }

    /// Whether the request surely never reached the server (no connection was made), so any
    /// request may be tried again.
    public var isBeforeSending: Bool { reason == .resolve || reason == .connect || reason == .tls }

    public init(reason: Reason, detail: String) {
        self.reason = reason
        self.detail = detail
    }

    public var description: String { detail }
}
