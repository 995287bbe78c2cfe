/// Who may read the pages. On loopback anyone on this machine may (the Host header must name
/// the loopback address, which stops DNS rebinding); on any other address every request must carry
/// the token, as `Authorization: Bearer TOKEN` or a `lanes_token` cookie.
public struct AccessPolicy: Sendable {
    public static let tokenVariable = "LANES_WEB_TOKEN"

    let token: String?
    /// Host names a loopback server answers to (any port); empty off loopback.
    let loopbackHosts: Set<String>

    /// Throws when `address` is not loopback and no token is given.
    public init(address: ListenAddress, token: String?) throws(HTTPServerError) {
        let token = token.flatMap { $0.isEmpty ? nil : $0 }
        if !address.isLoopback {
            guard let token else {
                throw HTTPServerError(description: "serving on \(address.host), which is not loopback, needs a token in \(Self.tokenVariable)")
            }
            guard token.utf8.count >= 16 else {
                throw HTTPServerError(description: "\(Self.tokenVariable) is shorter than 16 characters; use a long random value")
            }
        }
        self.token = token
        loopbackHosts = address.isLoopback ? [address.host, "localhost"] : []
    }

    /// Whether the request may be answered.
    public func allows(_ request: HTTPRequest) -> Bool {
        if !loopbackHosts.isEmpty, token == nil {
            let host = request.headers["host"] ?? ""
            let name = host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
            return loopbackHosts.contains(name)
        }
        guard let token else { return false }
        if let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer "),
           Self.equalInConstantTime(String(authorization.dropFirst(7)), token) {
            return true
        }
        let cookies = (request.headers["cookie"] ?? "").split(separator: ";").map { $0.trimmingSpaces }
        return cookies.contains { cookie in
            cookie.hasPrefix("lanes_token=") && Self.equalInConstantTime(String(cookie.dropFirst(12)), token)
        }
    }

    /// Compares without returning early, so timing does not reveal a matching prefix.
    static func equalInConstantTime(_ a: String, _ b: String) -> Bool {
        let left = Array(a.utf8), right = Array(b.utf8)
        var difference = UInt8(left.count == right.count ? 0 : 1)
        for index in 0..<max(left.count, right.count) {
            difference |= (index < left.count ? left[index] : 0) ^ (index < right.count ? right[index] : 0)
        }
        return difference == 0
    }
}
