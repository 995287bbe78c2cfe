import LanesPlatform
import Foundation
import LanesUpload
import Synchronization
import LanesTestSupport
import Testing
import LanesHTTP

/// A cancelled transfer ends at once and leaves nothing behind: the blocked part upload returns,
/// and the multipart upload is aborted on the server.
@Suite(.timeLimit(.minutes(10))) struct TransferCancellationTests {
    @Test func cancellingAStalledMultipartUploadAbortsIt() async throws {
        let server = try StallingS3()
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-cancel-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let file = folder.appendingPathComponent("big.bin")
        try Data(repeating: 1, count: 6 << 20).write(to: file)

        let cancellation = TransferCancellation()
        let http = HTTPClient(retry: RetryPolicy(attempts: 3, baseDelay: 0.05), cancellation: cancellation)
        let client = S3Client(endpoint: try S3Endpoint.resolve(endpoint: server.url, region: "us-east-1", environment: [:]),
                              credentials: S3Credentials(accessKeyID: "AKIDEXAMPLE", secretAccessKey: "secret"), http: http)
        let uploader = S3Uploader(client: client, options: S3UploadOptions(multipartThreshold: 1 << 20, partSize: 5 << 20, concurrency: 2))
        // When the upload returned, taken on its own thread: polling latency under load is not the upload's.
        let finished = Mutex<Date?>(nil)
        let thrown = Mutex<String?>(nil)
        startThread {
            do { _ = try uploader.upload(file: file.path, bucket: "bucket", key: "big.bin", progress: SilentProgress()) } catch {
                thrown.withLock { $0 = String(describing: error) }
            }
            finished.withLock { $0 = Date() }
        }
        #expect(await eventually(within: .seconds(60)) { server.partsArrived > 0 }, "a part upload reached the server")
        let cancelled = Date()
        cancellation.cancel()
        #expect(await eventually(within: .seconds(10)) { finished.withLock { $0 } != nil }, "the upload ended after cancel()")
        let elapsed = (finished.withLock { $0 } ?? Date()).timeIntervalSince(cancelled)
        #expect(elapsed < 1, "ended \(elapsed) s after cancel()")
        #expect(thrown.withLock { $0 } != nil, "the upload failed rather than pretending success")
        #expect(server.aborted == ["upload-1"], "the multipart upload was aborted")
    }
}

/// Just enough S3 on 127.0.0.1: no unfinished uploads, creates `upload-1`, records aborts, and
/// never answers a part upload.
final class StallingS3: @unchecked Sendable {
    private let listener: Int32
    private let lock = NSLock()
    private var abortedIDs: [String] = []
    private let arrivals = Mutex(0)
    /// Part uploads that reached this server.
    var partsArrived: Int { arrivals.withLock { $0 } }
    let port: UInt16

    var url: String { "http://127.0.0.1:\(port)" }
    var aborted: [String] { lock.withLock { abortedIDs } }

    init() throws {
        let (descriptor, port) = try LoopbackListener.open()
        self.port = port
        listener = descriptor
        startThread { [self] in
            while true {
                let client = accept(listener, nil, nil)
                if client < 0 { return }
                startThread { [self] in serve(client) }
            }
        }
    }

    deinit { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var buffer = [UInt8](repeating: 0, count: 65536)
        var pending: [UInt8] = []
        while true {
            // One request head at a time; bodies are skipped (a part's body is never read: it stalls).
            guard let end = Self.headEnd(in: pending) else {
                let count = read(client, &buffer, buffer.count)
                if count <= 0 { return }
                pending += buffer[0..<count]
                continue
            }
            let head = String(decoding: pending[0..<end], as: UTF8.self)
            pending.removeFirst(end + 4)
            let requestLine = head.split(separator: "\r\n").first.map(String.init) ?? ""
            var length = 0
            for line in head.split(separator: "\r\n") where line.lowercased().hasPrefix("content-length:") {
                length = Int(line.dropFirst(15).trimmingCharacters(in: .whitespaces)) ?? 0
            }
            let body: String
            if requestLine.hasPrefix("PUT ") {
                arrivals.withLock { $0 += 1 }
                while read(client, &buffer, buffer.count) > 0 {}  // never answer
                return
            } else if requestLine.hasPrefix("GET ") {
                body = "<ListMultipartUploadsResult></ListMultipartUploadsResult>"
            } else if requestLine.hasPrefix("POST ") {
                body = "<InitiateMultipartUploadResult><UploadId>upload-1</UploadId></InitiateMultipartUploadResult>"
            } else if requestLine.hasPrefix("DELETE "), let range = requestLine.range(of: "uploadId=") {
                let id = requestLine[range.upperBound...].prefix { $0 != " " && $0 != "&" }
                lock.withLock { abortedIDs.append(String(id)) }
                body = ""
            } else {
                body = ""
            }
            while pending.count < length {
                let count = read(client, &buffer, buffer.count)
                if count <= 0 { return }
                pending += buffer[0..<count]
            }
            pending.removeFirst(length)
            let status = requestLine.hasPrefix("DELETE ") ? "204 No Content" : "200 OK"
            let answer = Array("HTTP/1.1 \(status)\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)".utf8)
            _ = answer.withUnsafeBytes { write(client, $0.baseAddress, $0.count) }
        }
    }

    private static func headEnd(in bytes: [UInt8]) -> Int? {
        guard bytes.count >= 4 else { return nil }
        for index in 0...(bytes.count - 4) where bytes[index] == 13 && bytes[index + 1] == 10 && bytes[index + 2] == 13 && bytes[index + 3] == 10 {
            return index
        }
        return nil
    }
}
