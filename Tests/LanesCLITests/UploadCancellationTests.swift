import LanesPlatform
import Foundation
import LanesTestSupport
import Testing

/// A step that works in-process (the upload's HTTP client) stops when asked: at its `timeout`, on
/// Ctrl-C, without leaving its keychain; and a fast one is never reported as timed out.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct UploadCancellationTests {
    let lanes = LanesCommandLine()

    @Test func aStalledUploadEndsAtItsTimeout() async throws {
        let server = try StallingHTTPServer(stall: true)
        let directory = LanesCommandLine.temporaryDirectory("upload-timeout")
        let file = directory.appendingPathComponent("artifact.bin")
        try Data(repeating: 7, count: 200_000).write(to: file)
        let running = try lanes.start(["run", "upload", "file:\(file.path)", "to:\(server.url)/artifact.bin", "timeout:2"], in: directory)
        let putArrived = server.waitForPut(seconds: 120)
        let result = await running.finish()
        let elapsed = Date().timeIntervalSince(putArrived ?? Date())
        #expect(putArrived != nil, "the PUT reached the server: \(result.output)")
        // The step started before its PUT arrived, so the step itself took no longer than this.
        #expect(elapsed < 3, "ended \(elapsed) s after the PUT arrived")
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("upload timed out after 2 s"), "\(result.output)")
        #expect(server.waitUntilClosed(seconds: 10), "lanes closed its connection")
    }

    @Test func aFastUploadWithALongTimeoutIsOK() async throws {
        let server = try StallingHTTPServer(stall: false)
        let directory = LanesCommandLine.temporaryDirectory("upload-fast")
        let file = directory.appendingPathComponent("artifact.bin")
        try Data(repeating: 9, count: 50_000).write(to: file)
        let result = try await lanes.run(["run", "upload", "file:\(file.path)", "to:\(server.url)/artifact.bin", "timeout:60"], in: directory)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.output.contains("timed out"), "\(result.output)")
        #expect(server.receivedBodyBytes == 50_000)
    }

    @Test func sigintDuringAStalledUploadEndsTheLaneAndRemovesTheKeychain() async throws {
        let server = try StallingHTTPServer(stall: true)
        let project = try LanesCommandLine.project("keychain")
        let keychains = project.appendingPathComponent(".lanes/keychains")
        #expect(try await lanes.run(["list"], in: project).status == 0, "compile first, so the signal reaches the runner")
        let running = try lanes.start(["signThenUpload"], in: project,
                                      extraEnvironment: ["CERTIFICATE_PASSWORD": "brewer-3des-pass",
                                                         "LANES_UPLOAD_DESTINATION": "\(server.url)/ios_distribution.p12"])
        let putArrived = server.waitForPut(seconds: 120)
        let sawKeychain = (try? FileManager.default.contentsOfDirectory(atPath: keychains.path))?.isEmpty == false
        let signalled = Date()
        kill(running.pid, SIGINT)
        let result = await running.finish()
        let elapsed = Date().timeIntervalSince(signalled)
        #expect(putArrived != nil, "the PUT reached the server: \(result.output)")
        #expect(sawKeychain, "the keychain existed while the upload ran")
        #expect(elapsed < 2, "ended \(elapsed) s after SIGINT")
        #expect(result.status == 130, "\(result.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: keychains.path).isEmpty)
        #expect(!result.output.contains("brewer-3des-pass"))
    }
}

/// An HTTP server on 127.0.0.1 that reads a PUT's head and body and then either answers 201 or
/// never answers (the connection stays open until the client gives up).
final class StallingHTTPServer: @unchecked Sendable {
    private let listener: Int32
    private let stall: Bool
    private let lock = NSCondition()
    private var putTime: Date?
    private var requests = 0
    private var bodyBytes = 0
    private var open = 0
    let port: UInt16

    var url: String { "http://127.0.0.1:\(port)" }
    var receivedBodyBytes: Int { lock.withLock { bodyBytes } }

    /// Whether any request arrived within `seconds`.
    func waitForRequest(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return lock.withLock {
            while requests == 0, lock.wait(until: deadline) {}
            return requests > 0
        }
    }

    /// Whether every connection was closed by the client within `seconds`.
    func waitUntilClosed(seconds: Double) -> Bool {
        let deadline = Date().addingTimeInterval(seconds)
        return lock.withLock {
            while open > 0, lock.wait(until: deadline) {}
            return open == 0
        }
    }

    init(stall: Bool) throws {
        self.stall = stall
        let descriptor = StreamSocket.open(family: AF_INET)
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        address.sin_port = 0
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(descriptor, $0, length) } }
        listen(descriptor, 16)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(descriptor, $0, &length) } }
        port = UInt16(bigEndian: address.sin_port)
        listener = descriptor
        startThread { [self] in acceptLoop() }
    }

    deinit { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    /// When the first PUT's head arrived, waiting for it up to `seconds`.
    func waitForPut(seconds: Double) -> Date? {
        let deadline = Date().addingTimeInterval(seconds)
        return lock.withLock {
            while putTime == nil, lock.wait(until: deadline) {}
            return putTime
        }
    }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            lock.withLock { open += 1 }
            startThread { [self] in serve(client) }
        }
    }

    private func serve(_ client: Int32) {
        defer {
            close(client)
            lock.withLock {
                open -= 1
                lock.broadcast()
            }
        }
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var headEnd: Int?
        var contentLength = 0
        while true {
            let count = read(client, &buffer, buffer.count)
            if count <= 0 { return }
            received += buffer[0..<count]
            if headEnd == nil, let end = Self.find([13, 10, 13, 10], in: received) {
                headEnd = end + 4
                let head = String(decoding: received[0..<end], as: UTF8.self)
                for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                    contentLength = Int(line.dropFirst("content-length:".count).trimmingCharacters(in: .whitespaces)) ?? 0
                }
                lock.withLock {
                    requests += 1
                    lock.broadcast()
                }
                if head.hasPrefix("PUT ") {
                    lock.withLock {
                        if putTime == nil { putTime = Date() }
                        lock.broadcast()
                    }
                }
            }
            if let headEnd, received.count - headEnd >= contentLength { break }
        }
        lock.withLock { bodyBytes += received.count - (headEnd ?? received.count) }
        if stall {
            // Never answer; return when the client closes its end.
            while read(client, &buffer, buffer.count) > 0 {}
            return
        }
        let answer = Array("HTTP/1.1 201 Created\r\nContent-Length: 0\r\nConnection: close\r\n\r\n".utf8)
        _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8]) -> Int? {
        guard haystack.count >= needle.count else { return nil }
        for start in 0...(haystack.count - needle.count) where Array(haystack[start..<start + needle.count]) == needle { return start }
        return nil
    }
}
