internal import LanesPlatform
/// An absolute http or https URL, split the way an HTTP/1.1 client needs it.
public struct HTTPURL: Sendable, Hashable, CustomStringConvertible {
    public let isTLS: Bool
    public let host: String
    public let port: Int
    /// Percent-encoded path, starting with "/".
    public let path: String
    /// Percent-encoded query without "?", or nil.
    public let query: String?

    public init(isTLS: Bool, host: String, port: Int? = nil, path: String, query: String? = nil) {
        self.isTLS = isTLS
        self.host = host
        self.port = port ?? (isTLS ? 443 : 80)
        self.path = path.hasPrefix("/") ? path : "/" + path
        self.query = query
    }

    /// Parses `http(s)://host[:port][/path][?query]`; nil for anything else (user info is refused:
    /// credentials come from the environment, never from a URL that gets printed).
    public init?(_ text: String) {
        // Spaces and control characters (CR/LF would inject request headers) are not URL characters.
        guard !text.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7f }) else { return nil }
        let tls: Bool
        let rest: Substring
        if text.lowercased().hasPrefix("https://") { tls = true; rest = text.dropFirst(8) }
        else if text.lowercased().hasPrefix("http://") { tls = false; rest = text.dropFirst(7) }
        else { return nil }
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        let authority = rest[..<authorityEnd]
        guard !authority.isEmpty, !authority.contains("@") else { return nil }
        var host = String(authority)
        var port: Int?
        if let colon = authority.lastIndex(of: ":"), !authority.hasSuffix("]") {
            guard let number = Int(authority[authority.index(after: colon)...]), (1...65535).contains(number) else { return nil }
            port = number
            host = String(authority[..<colon])
        }
        if host.hasPrefix("[") && host.hasSuffix("]") { host = String(host.dropFirst().dropLast()) }
        guard !host.isEmpty else { return nil }
        let remainder = rest[authorityEnd...]
        let pathPart = remainder.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false).first.map(String.init) ?? ""
        let queryPart = remainder.firstIndex(of: "?").map { String(remainder[remainder.index(after: $0)...]) }
        self.init(isTLS: tls, host: host.lowercased(), port: port, path: pathPart.isEmpty ? "/" : pathPart, query: queryPart)
    }

    package var defaultPort: Bool { port == (isTLS ? 443 : 80) }

    /// The Host header value.
    package var authority: String {
        let name = host.contains(":") ? "[\(host)]" : host
        return defaultPort ? name : "\(name):\(port)"
    }

    /// What goes on the request line.
    package var target: String { query.map { "\(path)?\($0)" } ?? path }

    /// The same server with another path and query.
    package func with(path: String, query: String? = nil) -> HTTPURL {
        HTTPURL(isTLS: isTLS, host: host, port: port, path: path, query: query)
    }

    /// An API path below this base URL's path (`https://proxy/asc` + `/v1/apps` is `https://proxy/asc/v1/apps`),
    /// so an API served under a prefix keeps it.
    package func appending(path: String, query: String? = nil) -> HTTPURL {
        let base = self.path.hasSuffix("/") ? String(self.path.dropLast()) : self.path
        return with(path: base + (path.hasPrefix("/") ? path : "/" + path), query: query)
    }

    /// Scheme, host and port: the key connections are pooled under.
    package var origin: String { "\(isTLS ? "https" : "http")://\(authority)" }

    /// The URL without its query: query strings may hold signatures, so only this form is printed.
    public var description: String { origin + path }

    /// RFC 3986 percent-encoding of everything but unreserved characters (and "/" when `keepSlash`).
    public static func encode(_ text: String, keepSlash: Bool = false) -> String {
        PercentEncoding.encode(text, keeping: keepSlash ? [UInt8(ascii: "/")] : [])
    }

    /// `scheme://user:password@host/...` without `user:password@`, so that an error never repeats it.
    package static func withoutUserInfo(_ text: String) -> String {
        guard let schemeEnd = text.firstRange(of: "://") else { return text }
        let rest = text[schemeEnd.upperBound...]
        let authorityEnd = rest.firstIndex { $0 == "/" || $0 == "?" } ?? rest.endIndex
        guard let at = rest[..<authorityEnd].lastIndex(of: "@") else { return text }
        return String(text[..<schemeEnd.upperBound]) + "…@" + String(rest[rest.index(after: at)...])
    }
}
