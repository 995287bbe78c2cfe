import LanesTestSupport
import Foundation
import LanesUpload
import Testing
import LanesHTTP

/// The loopback proxy of Tests/Servers/http_proxy.py, stopped by `stop()`.
struct TestProxy {
    let pid: pid_t
    let port: Int
    let folder: String

    /// `credentials` (USER:PASSWORD) makes it answer 407 to requests without them.
    init(credentials: String? = nil) async throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-proxy-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = TestServers.repositoryRoot.appendingPathComponent("Tests/Servers/http_proxy.py").path
        pid = try Spawn.start(["python3", script, folder, String(getpid())] + (credentials.map { [$0] } ?? []), outputPath: folder + "/log")
        let portFile = folder + "/port"
        _ = await eventually(within: .seconds(10)) { (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) } != nil }
        let found = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
        port = try #require(found, "the proxy did not start: \((try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? "")")
    }

    /// "METHOD TARGET auth=yes|no|wrong" per request the proxy saw.
    var requests: [String] {
        ((try? String(contentsOfFile: folder + "/requests", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
    }

    func stop() {
        kill(pid, SIGKILL)
        var status: Int32 = 0
        waitpid(pid, &status, 0)
        try? FileManager.default.removeItem(atPath: folder)
    }
}

/// Issue 21: `HTTPS_PROXY`, `HTTP_PROXY` and `NO_PROXY` as curl reads them, https through CONNECT,
/// the proxy's credentials from its URL and never shown.
@Suite(.timeLimit(.minutes(10))) struct ProxyTests {
    static func client(_ environment: [String: String]) -> HTTPClient {
        HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10), retry: RetryPolicy(attempts: 1), proxies: ProxySettings(environment: environment))
    }

    @Test func plainHTTPGoesThroughTheProxyInAbsoluteFormUnlessNoProxyNamesTheHost() async throws {
        let proxy = try await TestProxy()
        defer { proxy.stop() }
        let server = try HostileServer { send in _ = send(Array("HTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok".utf8)) }
        let url = try #require(HTTPURL("\(server.url)/drop/a.ipa"))
        let through = Self.client(["http_proxy": "127.0.0.1:\(proxy.port)"])
        let response = try through.send(HTTPRequest(method: "PUT", url: url, body: .bytes(Array("artifact".utf8))))
        #expect(response.status == 201 && response.text == "ok")
        #expect(proxy.requests == ["PUT \(server.url)/drop/a.ipa auth=no"], "\(proxy.requests)")
        #expect(server.requests.count == 1)

        for bypass in ["127.0.0.1", "*", "localhost,127.0.0.0/8", "127.0.0.1:\(server.port)"] {
            let direct = Self.client(["HTTP_PROXY": "http://127.0.0.1:\(proxy.port)", "NO_PROXY": bypass])
            #expect(try direct.send(HTTPRequest(method: "GET", url: url)).status == 201)
        }
        #expect(proxy.requests.count == 1, "NO_PROXY bypassed the proxy: \(proxy.requests)")
        #expect(server.requests.count == 5)
    }

    @Test func aProxyThatWantsOtherCredentialsIsAClearErrorWithoutThePassword() async throws {
        let proxy = try await TestProxy(credentials: "ci:right")
        defer { proxy.stop() }
        let settings = ProxySettings(environment: ["https_proxy": "http://ci:wr%40ng-s3cret@127.0.0.1:\(proxy.port)"])
        #expect(settings.secrets.contains("wr@ng-s3cret"), "the decoded password is registered for redaction")
        let client = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10), retry: RetryPolicy(attempts: 3, baseDelay: 0), proxies: settings)
        let error = #expect(throws: TransportError.self) {
            _ = try client.send(HTTPRequest(method: "GET", url: try #require(HTTPURL("https://localhost:9/"))))
        }
        #expect(error?.detail.contains("refused its credentials (407)") == true, "\(String(describing: error))")
        #expect(error?.detail.contains("s3cret") == false && error?.detail.contains("ci:") == false)
        #expect(proxy.requests == ["CONNECT localhost:9 auth=wrong"], "a refusal is not retried: \(proxy.requests)")
    }

    @Test(arguments: [
        ("HTTPS_PROXY", "socks5://user:pa55word@10.0.0.1:1080", "only http:// proxies are supported"),
        ("https_proxy", "http://user:pa55word@proxy:notaport", "is not a proxy URL"),
    ])
    func aMalformedProxyVariableIsNamedAndItsPasswordHidden(variable: String, value: String, message: String) throws {
        let client = Self.client([variable: value])
        let error = #expect(throws: TransportError.self) {
            _ = try client.send(HTTPRequest(method: "GET", url: try #require(HTTPURL("https://example.com/"))))
        }
        #expect(error?.detail.contains(variable) == true && error?.detail.contains(message) == true, "\(String(describing: error))")
        #expect(error?.detail.contains("pa55word") == false)
    }

    /// curl's NO_PROXY rules: a name matches itself and names below it, with or without a leading
    /// dot; `*` matches all; IP literals match exactly (or as a range); a port limits an entry.
    @Test(arguments: [
        ("example.com", "example.com", 443, true), ("example.com", "www.example.com", 443, true),
        (".example.com", "example.com", 443, true), ("example.com", "badexample.com", 443, false),
        ("example.com", "example.com.evil.net", 443, false), ("*", "anything.net", 80, true),
        ("10.1.2.3", "10.1.2.3", 80, true), ("10.1.2.3", "10.1.2.30", 80, false), ("10.0.0.0/8", "10.200.1.1", 80, true),
        ("10.0.0.0/8", "11.0.0.1", 80, false), ("[::1]", "::1", 80, true), ("::1", "::1", 80, true), ("fd00::/8", "fd12::1", 443, true),
        ("example.com:8443", "example.com", 8443, true), ("example.com:8443", "example.com", 443, false),
        ("localhost", "127.0.0.1", 80, false),
    ])
    func noProxyFollowsCurl(entry: String, host: String, port: Int, bypassed: Bool) throws {
        let settings = ProxySettings(environment: ["https_proxy": "http://10.9.9.9:3128", "http_proxy": "http://10.9.9.9:3128", "no_proxy": "a.invalid, \(entry)"])
        let url = try #require(HTTPURL("https://\(host.contains(":") ? "[\(host)]" : host):\(port)/"))
        #expect(settings.bypasses(url) == bypassed)
    }
}

extension TLSTests {
    /// https through the proxy: a CONNECT tunnel with the proxy's credentials, the TLS handshake
    /// and the host check end to end with the server; the proxy never sees the request inside.
    @Test func httpsGoesThroughTheProxyByConnect() async throws {
        let proxy = try await TestProxy(credentials: "ci:pr0xy pass")
        defer { proxy.stop() }
        let server = try await Server(certificate: "localhost")
        defer { server.stop() }
        setenv("SSL_CERT_FILE", "\(try Self.authority.get())/ca.crt", 1)
        let client = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10), retry: RetryPolicy(attempts: 1),
                                proxies: ProxySettings(environment: ["HTTPS_PROXY": "http://ci:pr0xy%20pass@127.0.0.1:\(proxy.port)"]))
        unsetenv("SSL_CERT_FILE")
        let response = try Self.get(client, "https://localhost:\(server.port)/secret-path")
        #expect(response.status == 200 && response.text == "hello over tls\n")
        #expect(proxy.requests == ["CONNECT localhost:\(server.port) auth=yes"], "\(proxy.requests)")
        #expect(server.serverNames == ["localhost"], "SNI went through the tunnel: \(server.serverNames)")
    }
}
