import LanesPlatform
import Foundation
@testable import LanesWeb
import LanesTestSupport
import Testing

/// Issue 21: clients cannot exhaust the history server. Connections are capped, a client that
/// never reads or trickles its head is dropped, and a log line cannot forge a stream event.
@Suite(.timeLimit(.minutes(10))) struct ServerLimitTests {
    /// A connected client socket to 127.0.0.1:`port` (nothing sent yet).
    static func dial(_ port: UInt16) throws -> Int32 {
        let descriptor = StreamSocket.open(family: AF_INET)
        SocketOptions.setTimeouts(descriptor, receive: 20)
        // A small receive window, so a stream the client never reads fills it soon.
        SocketOptions.setBufferSizes(descriptor, receive: 4096)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = port.bigEndian
        inet_pton(AF_INET, "127.0.0.1", &address.sin_addr)
        let connected = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        try #require(connected == 0)
        return descriptor
    }

    static func transmit(_ descriptor: Int32, _ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { StreamSocket.send(descriptor, $0.baseAddress!, $0.count) }
    }

    static func readAll(_ descriptor: Int32) -> String {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
            guard count > 0 else { break }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// Waits (bounded) until `condition` holds.
    static func eventually(within seconds: Double, _ condition: @Sendable () -> Bool) async -> Bool {
        await LanesTestSupport.eventually(within: .seconds(seconds), condition)
    }

    static func start(_ configure: (HTTPServer) -> Void = { _ in }, handler: @escaping HTTPServer.Handler) throws -> HTTPServer {
        let server = try HTTPServer(listeningOn: ListenAddress(host: "127.0.0.1", port: 0), handler: handler)
        configure(server)
        startThread { try? server.run() }
        return server
    }

    @Test func connectionsBeyondTheCapAreAnsweredBusy() async throws {
        let server = try Self.start({ $0.maximumConnections = 4 }) { _ in .text("ok\n", status: 200) }
        defer { server.stop() }
        let silent = try (0..<4).map { _ in try Self.dial(server.address.port) }
        defer { silent.forEach { close($0) } }
        #expect(await Self.eventually(within: 10) { server.activeConnections == 4 }, "\(server.activeConnections) connections served")
        let extra = try Self.dial(server.address.port)
        defer { close(extra) }
        Self.transmit(extra, "GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        let answer = Self.readAll(extra)
        #expect(answer.hasPrefix("HTTP/1.1 503 "), "\(answer)")
        #expect(server.activeConnections == 4)
    }

    @Test func aClientThatNeverReadsIsDroppedAfterTheSendTimeout() async throws {
        let server = try Self.start({ $0.sendSeconds = 0.5 }) { _ in
            HTTPResponse(status: 200, contentType: "text/plain") { write in
                let block = String(repeating: "x", count: 65536)
                for _ in 0..<100_000 { guard write(block) else { return } }  // 6 GB at most
            }
        }
        defer { server.stop() }
        let client = try Self.dial(server.address.port)
        defer { close(client) }
        Self.transmit(client, "GET /stream HTTP/1.1\r\nHost: 127.0.0.1\r\n\r\n")
        #expect(await Self.eventually(within: 2) { server.activeConnections == 1 })
        #expect(await Self.eventually(within: 15) { server.activeConnections == 0 }, "the stream still holds its thread")
    }

    @Test func aTricklingRequestHeadIsDroppedAtItsDeadline() async throws {
        let server = try Self.start({ $0.headSeconds = 1 }) { _ in .text("ok\n", status: 200) }
        defer { server.stop() }
        let client = try Self.dial(server.address.port)
        defer { close(client) }
        let started = Date()
        // One byte every 0.3 s: each recv sees progress, so only a deadline on the whole head ends it.
        for byte in "GET / HTTP/1.1\r\nHost: 1".map(String.init) {
            Self.transmit(client, byte)
            if server.activeConnections == 0 && Date().timeIntervalSince(started) > 0.5 { break }
            try await Task.sleep(for: .milliseconds(300))
        }
        #expect(await Self.eventually(within: 5) { server.activeConnections == 0 })
        #expect(Date().timeIntervalSince(started) < 6)
    }

    @Test func aLogLineCannotEndItsEvent() {
        let forged = "build 1\rdata: x\r\revent: end\rdata: succeeded\r\r\nnext\r\nlast\n"
        let event = WebApplication.logEvent(forged)
        // An event-stream parser ends lines at CR, LF or CRLF and events at an empty line.
        let lines = event.replacingOccurrences(of: "\r\n", with: "\n").split(separator: "\r", omittingEmptySubsequences: false)
            .joined(separator: "\n").split(separator: "\n", omittingEmptySubsequences: false)
        #expect(!lines.contains { $0.hasPrefix("event: end") }, "\(lines)")
        #expect(lines.filter(\.isEmpty).count == 2, "one event, ended once: \(lines)")
        #expect(lines.filter { $0.hasPrefix("data: ") }.count == 3)
    }
}
