import LanesTestSupport
import Foundation
import LanesUpload
import Testing
import LanesHTTP

/// Issue 21: TLS is tested against a loopback HTTPS server (Tests/Servers/tls_server.py) with
/// certificates from a test CA that the openssl command makes (Tests/Servers/make-test-ca.sh):
/// accepted with SSL_CERT_FILE, refused for an unknown CA, a wrong host name and an expired
/// certificate (each with its own hint, and without retrying), and no SNI for an IP literal.
@Suite(.timeLimit(.minutes(10)), .serialized) struct TLSTests {
    /// The CA folder, made once per test process.
    static let authority: Result<String, TestServers.ServerStartFailure> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-tls-ca-\(getpid())").path
        try? FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let script = TestServers.repositoryRoot.appendingPathComponent("Tests/Servers/make-test-ca.sh").path
        guard (try? Spawn.run(["sh", script, folder])) == 0 else { return .failure(.init(description: "make-test-ca.sh failed")) }
        return .success(folder)
    }()

    /// A TLS server presenting `certificate` (a name made by make-test-ca.sh); stopped by `stop()`.
    struct Server {
        let pid: pid_t
        let port: Int
        let folder: String

        init(certificate: String) async throws {
            let authority = try TLSTests.authority.get()
            folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-tls-\(UUID().uuidString)").path
            try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
            let script = TestServers.repositoryRoot.appendingPathComponent("Tests/Servers/tls_server.py").path
            pid = try Spawn.start(["python3", script, "\(authority)/\(certificate).crt", "\(authority)/\(certificate).key", folder,
                                   String(getpid())], outputPath: folder + "/log")
            let portFile = folder + "/port"
            _ = await eventually(within: .seconds(10)) { (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) } != nil }
            let found = (try? String(contentsOfFile: portFile, encoding: .utf8)).flatMap { Int($0) }
            port = try #require(found, "the TLS server did not start: \((try? String(contentsOfFile: folder + "/log", encoding: .utf8)) ?? "")")
        }

        var serverNames: [String] {
            ((try? String(contentsOfFile: folder + "/sni", encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }

        func stop() {
            // SIGKILL: the test process may hold SIGTERM ignored, which a spawned child inherits.
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
        }
    }

    /// A client whose trust store is the test CA (SSL_CERT_FILE, read when the client is made).
    static func client(trusting file: String?) throws -> HTTPClient {
        let authority = try authority.get()
        if let file { setenv("SSL_CERT_FILE", "\(authority)/\(file)", 1) } else { unsetenv("SSL_CERT_FILE") }
        defer { unsetenv("SSL_CERT_FILE") }
        return HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10), retry: RetryPolicy(attempts: 3, baseDelay: 0))
    }

    static func get(_ client: HTTPClient, _ url: String) throws -> HTTPResponse {
        try client.send(HTTPRequest(method: "GET", url: try #require(HTTPURL(url))))
    }

    @Test func aCertificateFromTheCAInSSLCertFileIsAccepted() async throws {
        let server = try await Server(certificate: "localhost")
        defer { server.stop() }
        let client = try Self.client(trusting: "ca.crt")
        let response = try Self.get(client, "https://localhost:\(server.port)/")
        #expect(response.status == 200 && response.text == "hello over tls\n")
        let put = try client.send(HTTPRequest(method: "PUT", url: try #require(HTTPURL("https://127.0.0.1:\(server.port)/a")),
                                              body: .bytes(Array(repeating: 1, count: 300_000))))
        #expect(put.status == 201)
        // SNI carries the host name, and none for an IP literal (RFC 6066).
        #expect(server.serverNames.first == "localhost", "\(server.serverNames)")
        #expect(server.serverNames.dropFirst().allSatisfy { $0 == "-" }, "\(server.serverNames)")
    }

    @Test(arguments: [
        ("stranger", "localhost", "not trusted here: for a private CA set SSL_CERT_FILE"),
        ("other", "localhost", "is for another host name"),
        ("other", "127.0.0.1", "is for another host name"),
        ("expired", "localhost", "outside its validity period"),
    ])
    func aRefusedCertificateGetsTheHintOfItsCauseAndNoRetry(certificate: String, host: String, hint: String) async throws {
        let server = try await Server(certificate: certificate)
        defer { server.stop() }
        let retries = RetryCounter()
        setenv("SSL_CERT_FILE", "\(try Self.authority.get())/ca.crt", 1)
        let client = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10), retry: RetryPolicy(attempts: 3, baseDelay: 0),
                                onRetry: { _ in retries.add() })
        unsetenv("SSL_CERT_FILE")
        let error = #expect(throws: TransportError.self) { _ = try Self.get(client, "https://\(host):\(server.port)/") }
        #expect(error?.detail.contains(hint) == true, "\(String(describing: error))")
        #expect(error?.isRetryable == false)
        #expect(retries.count == 0, "a refused certificate was retried")
        #expect(!(error?.detail.contains("SSL_CERT_FILE") == true && !hint.contains("SSL_CERT_FILE")), "wrong hint: \(String(describing: error))")
    }
}

final class RetryCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value = 0
    func add() { lock.withLock { value += 1 } }
    var count: Int { lock.withLock { value } }
}
