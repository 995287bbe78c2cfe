import Foundation
import LanesUpload
import Testing
import LanesHTTP

/// Issue 21: a hostile server cannot make an upload buffer without limit (endless bodies, header
/// floods, endless `100 Continue`s), and a URL cannot smuggle request headers.
@Suite struct HostileResponseTests {
    static let client = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10), retry: RetryPolicy(attempts: 1))

    func request(_ server: HostileServer, path: String = "/upload") throws -> HTTPRequest {
        HTTPRequest(method: "PUT", url: try #require(HTTPURL(server.url + path)), body: .bytes(Array("artifact".utf8)))
    }

    /// A body far beyond any API answer (64 MiB, the bound of this test's server) is refused.
    @Test(arguments: ["Content-Length: 67108864\r\n", "Transfer-Encoding: chunked\r\n", ""])
    func anEndlessBodyIsRefused(framing: String) throws {
        let server = try HostileServer { send in
            guard send(Array("HTTP/1.1 200 OK\r\n\(framing)\r\n".utf8)) else { return }
            let block = [UInt8](repeating: UInt8(ascii: "x"), count: 1 << 20)
            let chunked = framing.contains("chunked")
            for _ in 0..<64 {
                guard send(chunked ? Array("100000\r\n".utf8) + block + Array("\r\n".utf8) : block) else { return }
            }
            if chunked { _ = send(Array("0\r\n\r\n".utf8)) }
        }
        let error = #expect(throws: TransportError.self) { _ = try Self.client.send(try request(server)) }
        #expect(error?.detail.contains("response body over 16 MiB") == true, "\(String(describing: error))")
    }

    @Test func aHeaderFloodIsRefused() throws {
        let server = try HostileServer { send in
            guard send(Array("HTTP/1.1 200 OK\r\n".utf8)) else { return }
            let lines = Array(String(repeating: "X-Flood: aaaaaaaaaaaaaaaaaaaaaaaa\r\n", count: 4096).utf8)
            for _ in 0..<32 { guard send(lines) else { return } }  // 4 MiB of headers at most
            _ = send(Array("Content-Length: 0\r\n\r\n".utf8))
        }
        let error = #expect(throws: TransportError.self) { _ = try Self.client.send(try request(server)) }
        #expect(error?.detail.contains("response head") == true, "\(String(describing: error))")
    }

    @Test func endlessContinuesAreRefused() throws {
        let server = try HostileServer { send in
            for _ in 0..<10_000 { guard send(Array("HTTP/1.1 100 Continue\r\n\r\n".utf8)) else { return } }
            _ = send(Array("HTTP/1.1 200 OK\r\nContent-Length: 0\r\n\r\n".utf8))
        }
        let error = #expect(throws: TransportError.self) { _ = try Self.client.send(try request(server)) }
        #expect(error?.detail.contains("interim (1xx)") == true, "\(String(describing: error))")
        #expect(server.requests.count == 1, "a refused answer is not retried")
    }

    @Test func aFewContinuesAndAnOrdinaryAnswerStillWork() throws {
        let server = try HostileServer { send in
            _ = send(Array("HTTP/1.1 100 Continue\r\n\r\nHTTP/1.1 201 Created\r\nContent-Length: 2\r\n\r\nok".utf8))
        }
        let response = try Self.client.send(try request(server))
        #expect(response.status == 201 && response.text == "ok")
    }

    @Test(arguments: ["/a\r\nX-Injected: 1", "/a\nX-Injected: 1", "/a b", "/a\u{7f}"])
    func controlCharactersInAURLAreRefused(path: String) throws {
        let server = try HostileServer { send in _ = send(Array("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n".utf8)) }
        #expect(HTTPURL(server.url + path) == nil)
        #expect(throws: UploadError.self) { _ = try UploadDestination(parsing: server.url + path) }
        #expect(server.requests.isEmpty)
    }

    @Test func aHeaderValueWithALineBreakIsNeverSent() throws {
        let server = try HostileServer { send in _ = send(Array("HTTP/1.1 201 Created\r\nContent-Length: 0\r\n\r\n".utf8)) }
        var request = try request(server)
        request.headers.append(("X-Note", "one\r\nX-Injected: 1"))
        #expect(throws: TransportError.self) { _ = try Self.client.send(request) }
        #expect(server.requests.allSatisfy { !$0.contains("X-Injected") })
    }

    /// A POST that creates something is not sent twice; PUT and GET are retried.
    @Test(arguments: [("POST", 1), ("PATCH", 1), ("PUT", 3), ("GET", 3)])
    func onlyIdempotentRequestsAreRetried(method: String, sent: Int) throws {
        let server = try HostileServer { send in _ = send(Array("HTTP/1.1 503 Busy\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)) }
        let client = HTTPClient(timeouts: RequestTimeouts(connect: 5, idle: 10), retry: RetryPolicy(attempts: 3, baseDelay: 0))
        let response = try client.send(HTTPRequest(method: method, url: try #require(HTTPURL(server.url + "/v1/releases")),
                                                   body: method == "GET" ? .empty : .bytes(Array("x".utf8))))
        #expect(response.status == 503)
        #expect(server.requests.count == sent, "\(method) sent \(server.requests.count) times")
    }
}
