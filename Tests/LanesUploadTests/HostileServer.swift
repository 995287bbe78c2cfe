import LanesPlatform
import Foundation
import Testing
import LanesHTTP

/// A server on 127.0.0.1 that answers every request with what `answer` writes (it may write a lot,
/// but each answer is bounded by the test), and keeps each request head it read.
final class HostileServer: @unchecked Sendable {
    let port: UInt16
    private let listener: Int32
    private let lock = NSLock()
    private var heads: [String] = []
    /// Writes an answer with `send`, which returns false once the client is gone.
    private let answer: @Sendable (_ send: ([UInt8]) -> Bool) -> Void

    init(answer: @escaping @Sendable (_ send: ([UInt8]) -> Bool) -> Void) throws {
        self.answer = answer
        let (descriptor, port) = try LoopbackListener.open()
        self.port = port
        listener = descriptor
        Thread { [self] in acceptLoop() }.start()
    }

    var url: String { "http://127.0.0.1:\(port)" }

    /// The request heads received so far.
    var requests: [String] { lock.withLock { heads } }

    deinit { shutdown(listener, Int32(SHUT_RDWR)); close(listener) }

    private func acceptLoop() {
        while true {
            let client = accept(listener, nil, nil)
            if client < 0 { return }
            Thread { [self] in serve(client) }.start()
        }
    }

    private func serve(_ client: Int32) {
        defer { close(client) }
        var head: [UInt8] = []
        var byte: UInt8 = 0
        while head.count < 65536, read(client, &byte, 1) == 1 {
            head.append(byte)
            if head.count >= 4 && head.suffix(4).elementsEqual("\r\n\r\n".utf8) { break }
        }
        let text = String(decoding: head, as: UTF8.self)
        lock.withLock { heads.append(text) }
        // Read the body too: closing with unread bytes would reset the connection under the answer.
        if let line = text.split(separator: "\r\n").first(where: { $0.lowercased().hasPrefix("content-length:") }),
           let length = Int(line.split(separator: ":")[1].trimmingCharacters(in: .whitespaces)) {
            var remaining = min(length, 1 << 20)
            while remaining > 0, read(client, &byte, 1) == 1 { remaining -= 1 }
        }
        answer { bytes in
            var offset = 0
            while offset < bytes.count {
                let written = bytes.withUnsafeBytes { StreamSocket.send(client, $0.baseAddress! + offset, bytes.count - offset) }
                if written <= 0 { return false }
                offset += written
            }
            return true
        }
    }
}
