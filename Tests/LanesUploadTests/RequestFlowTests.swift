import Foundation
import LanesPlatform
import LanesUpload
import Testing
import LanesHTTP

/// A server whose answers are scripted per request, in order, and which records each request
/// with its body; with `continueFirst`, it answers `Expect: 100-continue` itself.
final class ScriptedServer: @unchecked Sendable {
    struct Seen { let head: String; let body: [UInt8] }
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var seen: [Seen] = []
    typealias Script = (_ head: String) -> (interim: String?, final: String, readBody: Bool)
    private var answers: [(_ head: String) -> (interim: String?, final: String, readBody: Bool)]

    init(_ answers: [(_ head: String) -> (interim: String?, final: String, readBody: Bool)]) throws {
        self.answers = answers
        let (descriptor, port) = try LoopbackListener.open()
        self.port = port
        listener = descriptor
        Thread { [self] in acceptLoop() }.start()
    }

    deinit { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    var url: String { "http://127.0.0.1:\(port)" }
    var requests: [Seen] { lock.withLock { seen } }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        while true {
            var head: [UInt8] = []
            var byte: UInt8 = 0
            while head.count < 65536, read(client, &byte, 1) == 1 {
                head.append(byte)
                if head.suffix(4).elementsEqual("\r\n\r\n".utf8) { break }
            }
            guard !head.isEmpty else { return }
            let text = String(decoding: head, as: UTF8.self)
            let script = lock.withLock { answers.isEmpty ? nil : answers.removeFirst() }
            guard let (interim, final, readBody) = script?(text) else { return }
            if let interim { write(client, interim) }
            var body: [UInt8] = []
            if readBody, let line = text.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
               let length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) {
                var buffer = [UInt8](repeating: 0, count: 65536)
                while body.count < length {
                    let count = read(client, &buffer, min(buffer.count, length - body.count))
                    if count <= 0 { break }
                    body += buffer[0..<count]
                }
            }
            lock.withLock { seen.append(Seen(head: text, body: body)) }
            write(client, final)
            if !readBody { return }  // the body was never read: close, as a server that refused early does
        }
    }

    private func write(_ client: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { StreamSocket.send(client, $0.baseAddress! + offset, bytes.count - offset) }
            if written <= 0 { return }
            offset += written
        }
    }
}

/// Issue 21: 307/308 followed within one origin only, `Expect: 100-continue` for large bodies, and
/// a DNS lookup with a deadline.
@Suite struct RequestFlowTests {
    static let client = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10, continueWait: 5), retry: RetryPolicy(attempts: 1),
                                   proxies: .direct, expectContinueFrom: 1 << 20)

    static func answer(_ status: String, _ headers: String = "", body: String = "") -> (_ head: String) -> (interim: String?, final: String, readBody: Bool) {
        { _ in (nil, "HTTP/1.1 \(status)\r\n\(headers)Content-Length: \(body.utf8.count)\r\n\r\n\(body)", true) }
    }

    @Test(arguments: [307, 308])
    func aSameOriginRedirectKeepsMethodHeadersAndTheBodyReadAgainFromTheFile(status: Int) throws {
        let server = try ScriptedServer([Self.answer("\(status) Moved", "Location: /v2/store/a.ipa?part=1\r\n"), Self.answer("201 Created", body: "ok")])
        let file = try TestFiles.random(size: 300_000)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let request = HTTPRequest(method: "PUT", url: try #require(HTTPURL("\(server.url)/store/a.ipa")),
                                  headers: [("Authorization", "Bearer t0ken")], body: .file(path: file.path, offset: 0, length: 300_000))
        let response = try Self.client.send(request)
        #expect(response.status == 201 && response.text == "ok")
        let seen = server.requests
        try #require(seen.count == 2)
        #expect(seen[1].head.hasPrefix("PUT /v2/store/a.ipa?part=1 HTTP/1.1\r\n"), "\(seen[1].head)")
        #expect(seen[1].head.contains("Authorization: Bearer t0ken"))
        let original = Array(try Data(contentsOf: file))
        #expect(seen[0].body == original && seen[1].body == original)
    }

    @Test func aRedirectToAnotherOriginIsAnErrorAndTheCredentialsStayHome() throws {
        let other = try ScriptedServer([Self.answer("201 Created")])
        let server = try ScriptedServer([Self.answer("307 Temporary Redirect", "Location: \(other.url)/steal?sig=1\r\n")])
        let error = #expect(throws: TransportError.self) {
            _ = try Self.client.send(HTTPRequest(method: "PUT", url: try #require(HTTPURL("\(server.url)/a")),
                                                 headers: [("Authorization", "Bearer t0ken")], body: .bytes(Array("x".utf8))))
        }
        #expect(error?.detail.contains("a redirect to another server (\(other.url)/steal)") == true, "\(String(describing: error))")
        #expect(error?.detail.contains("sig=1") == false, "a query may hold a signature")
        #expect(other.requests.isEmpty, "the other origin got a request")
    }

    @Test(arguments: ["301 Moved Permanently", "302 Found", "303 See Other"])
    func redirectsThatChangeTheMethodAreAnError(status: String) throws {
        let server = try ScriptedServer([Self.answer(status, "Location: /b\r\n"), Self.answer("200 OK")])
        let error = #expect(throws: TransportError.self) {
            _ = try Self.client.send(HTTPRequest(method: "PUT", url: try #require(HTTPURL("\(server.url)/a")), body: .bytes([1])))
        }
        #expect(error?.detail.contains("that lanes does not follow") == true, "\(String(describing: error))")
        #expect(server.requests.count == 1)
    }

    @Test func aRedirectLoopEnds() throws {
        let server = try ScriptedServer(Array(repeating: Self.answer("308 Permanent Redirect", "Location: /again\r\n"), count: 20))
        let error = #expect(throws: TransportError.self) {
            _ = try Self.client.send(HTTPRequest(method: "GET", url: try #require(HTTPURL("\(server.url)/a"))))
        }
        #expect(error?.detail.contains("redirected more than 5 times") == true, "\(String(describing: error))")
        #expect(server.requests.count == 6)
    }

    /// A large body waits for `100 Continue`; a server that refuses first gets no body at all.
    @Test func aLargeBodyWaitsForContinueAndARefusalCostsNoBody() throws {
        let file = try TestFiles.random(size: 4 << 20)
        defer { try? FileManager.default.removeItem(at: file.deletingLastPathComponent()) }
        let body = RequestBody.file(path: file.path, offset: 0, length: 4 << 20)
        let server = try ScriptedServer([
            { _ in (nil, "HTTP/1.1 403 Forbidden\r\nContent-Length: 6\r\n\r\ndenied", false) },
            { _ in ("HTTP/1.1 100 Continue\r\n\r\n", "HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n", true) },
        ])
        let sent = SentCounter()
        let refused = try Self.client.send(HTTPRequest(method: "PUT", url: try #require(HTTPURL("\(server.url)/a")), body: body)) { sent.add($0) }
        #expect(refused.status == 403 && refused.text == "denied")
        #expect(sent.total == 0, "no byte of the body went out")
        let accepted = try Self.client.send(HTTPRequest(method: "PUT", url: try #require(HTTPURL("\(server.url)/b")), body: body)) { sent.add($0) }
        #expect(accepted.status == 201)
        #expect(sent.total == 4 << 20)
        let seen = server.requests
        #expect(seen.allSatisfy { $0.head.contains("Expect: 100-continue\r\n") })
        #expect(seen.last?.body.count == 4 << 20)
        // A small body does not wait.
        let small = try ScriptedServer([Self.answer("200 OK")])
        _ = try Self.client.send(HTTPRequest(method: "PUT", url: try #require(HTTPURL("\(small.url)/c")), body: .bytes([1, 2, 3])))
        #expect(small.requests.first?.head.contains("Expect") == false)
    }

    /// A server that ignores the header gets the body after the wait, as curl sends it.
    @Test func aServerThatNeverSaysContinueGetsTheBodyAfterTheWait() throws {
        let client = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10, continueWait: 0.2), retry: RetryPolicy(attempts: 1),
                                proxies: .direct, expectContinueFrom: 1024)
        let server = try ScriptedServer([Self.answer("201 Created")])
        let response = try client.send(HTTPRequest(method: "PUT", url: try #require(HTTPURL("\(server.url)/a")),
                                                   body: .bytes(Array(repeating: 7, count: 4096))))
        #expect(response.status == 201)
        #expect(server.requests.first?.body.count == 4096)
    }

    @Test func aServerThatRefusesTheExpectationGetsTheRequestWithoutIt() throws {
        let client = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10, continueWait: 5), retry: RetryPolicy(attempts: 1),
                                proxies: .direct, expectContinueFrom: 1024)
        let server = try ScriptedServer([{ _ in (nil, "HTTP/1.1 417 Expectation Failed\r\nContent-Length: 0\r\n\r\n", false) },
                                         Self.answer("201 Created")])
        let response = try client.send(HTTPRequest(method: "PUT", url: try #require(HTTPURL("\(server.url)/a")),
                                                   body: .bytes(Array(repeating: 7, count: 4096))))
        #expect(response.status == 201)
        #expect(server.requests.count == 2 && server.requests[1].head.contains("Expect") == false && server.requests[1].body.count == 4096)
    }

    /// A lookup that never returns ends at the deadline with the host named; cancelling ends it sooner.
    @Test func aHangingDNSLookupTimesOutNamingTheHost() throws {
        let resolver = HangingResolver()
        defer { resolver.release() }
        let client = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10, resolve: 0.3), retry: RetryPolicy(attempts: 1),
                                proxies: .direct, resolver: resolver)
        let started = Date()
        let error = #expect(throws: TransportError.self) {
            _ = try client.send(HTTPRequest(method: "GET", url: try #require(HTTPURL("https://artifacts.corp.example/a"))))
        }
        #expect(error?.detail.contains("resolving artifacts.corp.example took longer than 0.3 s") == true, "\(String(describing: error))")
        #expect(Date().timeIntervalSince(started) < 5)
        #expect(resolver.asked == ["artifacts.corp.example"])

        let cancellation = TransferCancellation()
        let patient = HTTPClient(timeouts: RequestTimeouts(resolve: 600), retry: RetryPolicy(attempts: 1), cancellation: cancellation,
                                 proxies: .direct, resolver: resolver)
        Thread { usleep(100_000); cancellation.cancel() }.start()
        let cancelled = #expect(throws: TransportError.self) {
            _ = try patient.send(HTTPRequest(method: "GET", url: try #require(HTTPURL("https://artifacts.corp.example/a"))))
        }
        #expect(cancelled?.reason == .cancelled)
    }
}

final class SentCounter: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Int64 = 0
    func add(_ count: Int64) { lock.withLock { value += count } }
    var total: Int64 { lock.withLock { value } }
}

/// A resolver that blocks until released, as a DNS server that never answers leaves getaddrinfo.
final class HangingResolver: NameResolver, @unchecked Sendable {
    private let condition = NSCondition()
    private var released = false
    private var hosts: [String] = []

    func addresses(host: String, port: Int) -> Result<[ResolvedAddress], TransportError> {
        condition.lock()
        hosts.append(host)
        while !released { condition.wait() }
        condition.unlock()
        return .failure(TransportError(reason: .resolve, detail: "released"))
    }

    func release() { condition.lock(); released = true; condition.broadcast(); condition.unlock() }
    var asked: [String] { condition.lock(); defer { condition.unlock() }; return hosts }
}
