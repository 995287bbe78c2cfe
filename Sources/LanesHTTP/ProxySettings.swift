internal import LanesPlatform

/// An HTTP proxy (`http://[user:password@]host[:port]`, the scheme optional as curl allows). Its
/// credentials go out only in `Proxy-Authorization`; `description` never shows them.
public struct ProxyServer: Sendable, CustomStringConvertible {
    public let host: String
    public let port: Int
    /// `Basic base64(user:password)`, or nil without credentials.
    package let authorization: String?
    /// The password (and the whole header value), for the redactor.
    public let secrets: [String]

    /// Parses a proxy variable's value; the error names `variable` and never repeats a password.
    package init(parsing text: String, variable: String) throws(TransportError) {
        let shown = HTTPURL.withoutUserInfo(text)
        var rest = Substring(text)
        if let scheme = rest.firstRange(of: "://") {
            let name = rest[..<scheme.lowerBound].lowercased()
            guard name == "http" else {
                throw TransportError(reason: .proxy, detail: "\(variable)=\(shown): only http:// proxies are supported (https through them goes by CONNECT), not \(name)://")
            }
            rest = rest[scheme.upperBound...]
        }
        if let slash = rest.firstIndex(of: "/") { rest = rest[..<slash] }
        var user: String?, password: String?
        if let at = rest.lastIndex(of: "@") {
            let userInfo = rest[..<at]
            rest = rest[rest.index(after: at)...]
            let parts = userInfo.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false)
            user = PercentEncoding.decode(String(parts[0])) ?? String(parts[0])
            password = parts.count > 1 ? PercentEncoding.decode(String(parts[1])) ?? String(parts[1]) : ""
        }
        guard let url = HTTPURL("http://" + rest), url.path == "/" else {
            throw TransportError(reason: .proxy, detail: "\(variable)=\(shown) is not a proxy URL (use http://[user:password@]host:port)")
        }
        host = url.host
        let hasPort = !rest.hasSuffix("]") && rest.contains(":")
        port = hasPort ? url.port : 1080  // curl's default proxy port
        if let user, let password {
            let header = "Basic " + Base64.encode(Array("\(user):\(password)".utf8))
            authorization = header
            secrets = [password, header, String(header.dropFirst(6))].filter { !$0.isEmpty }
        } else {
            authorization = nil
            secrets = []
        }
    }

    public var description: String { "http://\(host.contains(":") ? "[\(host)]" : host):\(port)" }

    package var url: HTTPURL { HTTPURL(isTLS: false, host: host, port: port, path: "/") }
}

/// Which requests go through a proxy, read from the environment as curl reads it: `https_proxy` /
/// `HTTPS_PROXY` for https URLs, `http_proxy` / `HTTP_PROXY` for http ones, `ALL_PROXY` for
/// either, and `no_proxy` / `NO_PROXY` for hosts reached directly. A malformed variable is kept as
/// an error that every request through it throws, naming the variable.
public struct ProxySettings: Sendable {
    private let https: Result<ProxyServer, TransportError>?
    private let http: Result<ProxyServer, TransportError>?
    private let bypass: [NoProxyRule]
    private let bypassAll: Bool

    /// No proxy at all.
    public static let direct = ProxySettings(environment: [:])

    public init(environment: [String: String]) {
        func value(_ names: [String]) -> (name: String, text: String)? {
            for name in names { if let text = environment[name], !text.trimmingSpaces.isEmpty { return (name, text.trimmingSpaces) } }
            return nil
        }
        func server(_ names: [String]) -> Result<ProxyServer, TransportError>? {
            guard let (name, text) = value(names) else { return nil }
            do { return .success(try ProxyServer(parsing: text, variable: name)) } catch { return .failure(error) }
        }
        https = server(["https_proxy", "HTTPS_PROXY", "all_proxy", "ALL_PROXY"])
        http = server(["http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"])
        let entries = (value(["no_proxy", "NO_PROXY"])?.text ?? "").split(separator: ",").map { String($0).trimmingSpaces }.filter { !$0.isEmpty }
        bypassAll = entries.contains("*")
        bypass = entries.compactMap(NoProxyRule.init)
    }

    /// The proxy `url` goes through, nil for a direct connection.
    package func proxy(for url: HTTPURL) throws(TransportError) -> ProxyServer? {
        guard let chosen = url.isTLS ? https : http, !bypasses(url) else { return nil }
        return try chosen.get()
    }

    /// Whether `NO_PROXY` sends `url` direct.
    public func bypasses(_ url: HTTPURL) -> Bool {
        bypassAll || bypass.contains { $0.matches(host: url.host, port: url.port) }
    }

    /// Every proxy password, for the redactor.
    public var secrets: [String] {
        [https, http].compactMap { try? $0?.get() }.flatMap(\.secrets)
    }
}

/// One entry of `NO_PROXY`, with curl's meaning: a host name matches itself and every name below
/// it (`example.com` and `.example.com` both match `www.example.com`), an IP address matches only
/// itself, `ADDRESS/BITS` a range, and an entry with `:PORT` only that port.
package struct NoProxyRule: Sendable {
    package let name: String
    package let port: Int?
    package let network: (address: [UInt8], bits: Int)?

    package init?(_ entry: String) {
        var text = entry.lowercased()
        var port: Int?
        if text.hasPrefix("["), let close = text.firstIndex(of: "]") {
            let after = text[text.index(after: close)...]
            if after.hasPrefix(":") { port = Int(after.dropFirst()) }
            text = String(text[text.index(after: text.startIndex)..<close])
        } else if text.filter({ $0 == ":" }).count == 1, let colon = text.firstIndex(of: ":") {
            port = Int(text[text.index(after: colon)...])
            text = String(text[..<colon])
        }
        while text.hasPrefix(".") || text.hasPrefix("*.") { text.removeFirst(text.hasPrefix(".") ? 1 : 2) }
        guard !text.isEmpty else { return nil }
        self.port = port
        if let slash = text.firstIndex(of: "/"), let bits = Int(text[text.index(after: slash)...]),
           let address = Self.addressBytes(String(text[..<slash])), (0...address.count * 8).contains(bits) {
            network = (address, bits)
            name = text
        } else {
            network = Self.addressBytes(text).map { ($0, $0.count * 8) }
            name = text
        }
    }

    package func matches(host: String, port: Int) -> Bool {
        if let wanted = self.port, wanted != port { return false }
        if let network {
            guard let address = Self.addressBytes(host), address.count == network.address.count else { return false }
            var bits = network.bits, index = 0
            while bits > 0 {
                let mask: UInt8 = bits >= 8 ? 0xff : ~(0xff >> UInt8(bits))
                if address[index] & mask != network.address[index] & mask { return false }
                bits -= 8
                index += 1
            }
            return true
        }
        let host = host.hasSuffix(".") ? String(host.dropLast()) : host
        return host == name || host.hasSuffix("." + name)
    }

    /// The bytes of an IPv4 or IPv6 literal, nil for a name.
    package static func addressBytes(_ text: String) -> [UInt8]? {
        var four = in_addr()
        if inet_pton(AF_INET, text, &four) == 1 { return withUnsafeBytes(of: &four) { Array($0) } }
        var six = in6_addr()
        if inet_pton(AF_INET6, text, &six) == 1 { return withUnsafeBytes(of: &six) { Array($0) } }
        return nil
    }
}

/// `description` already hides the credentials; a dump must not show the header either.
extension ProxyServer: CustomReflectable {
    public var customMirror: Mirror { Mirror(self, children: ["host": host, "port": port]) }
}
