/// Who may read the pages: only whoever holds the token (as `Authorization: Bearer TOKEN` or a
/// `lanes_token` cookie, compared in constant time). On loopback the `Host` header must also name
/// the loopback address, which stops DNS-rebinding pages; any local user can connect to 127.0.0.1,
/// so loopback alone proves nothing. A browser gets the cookie once, from the login address the
/// owner is shown (`/login?token=TOKEN`, which answers with the cookie and a redirect to `/`).
public struct AccessPolicy: Sendable {
    public static let tokenVariable = "LANES_WEB_TOKEN"
    public static let cookieName = "lanes_token"
    public static let loginPath = "/login"

    let token: String
    /// Host names a loopback server answers to (any port); empty off loopback.
    let loopbackHosts: Set<String>

    /// Throws when the token is shorter than 16 characters, or when `address` is not loopback and
    /// the token was not given explicitly (`LANES_WEB_TOKEN`): leaving the machine is a choice.
    public init(address: ListenAddress, token: String, explicit: Bool = true) throws(HTTPServerError) {
        if !address.isLoopback, !explicit {
            throw HTTPServerError(description: "serving on \(address.host), which is not loopback, needs a token in \(Self.tokenVariable)")
        }
        guard token.utf8.count >= 16 else {
            throw HTTPServerError(description: "\(Self.tokenVariable) is shorter than 16 characters; use a long random value")
        }
        self.token = token
        loopbackHosts = address.isLoopback ? [address.host, "localhost"] : []
    }

    /// The address that signs a browser in, for the owner's eyes only.
    public func loginURL(serverAddress: ListenAddress) -> String {
        "http://\(serverAddress)\(Self.loginPath)?token=\(token)"
    }

    /// Whether the request names this server (on loopback, its `Host` is a loopback name).
    func hostAllowed(_ request: HTTPRequest) -> Bool {
        guard !loopbackHosts.isEmpty else { return true }
        let host = request.headers["host"] ?? ""
        let name = host.split(separator: ":", maxSplits: 1).first.map(String.init) ?? ""
        return loopbackHosts.contains(name)
    }

    /// Whether the request may be answered.
    public func allows(_ request: HTTPRequest) -> Bool {
        guard hostAllowed(request) else { return false }
        if let authorization = request.headers["authorization"], authorization.hasPrefix("Bearer "),
           Self.equalInConstantTime(String(authorization.dropFirst(7)), token) {
            return true
        }
        let cookies = (request.headers["cookie"] ?? "").split(separator: ";").map { $0.trimmingSpaces }
        return cookies.contains { cookie in
            cookie.hasPrefix(Self.cookieName + "=") && Self.equalInConstantTime(String(cookie.dropFirst(Self.cookieName.count + 1)), token)
        }
    }

    /// The answer to `/login?token=TOKEN`: the cookie and a redirect to `/` when the token is
    /// right (the address bar then no longer shows it), nil when it is not.
    func login(_ request: HTTPRequest) -> HTTPResponse? {
        guard hostAllowed(request), let given = request.query["token"], Self.equalInConstantTime(given, token) else { return nil }
        var response = HTTPResponse.text("signed in\n", status: 303)
        response.headers += [("Location", "/"), ("Cache-Control", "no-store"),
                             ("Set-Cookie", "\(Self.cookieName)=\(token); Path=/; HttpOnly; SameSite=Strict")]
        return response
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
