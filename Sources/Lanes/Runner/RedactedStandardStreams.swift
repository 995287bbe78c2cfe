internal import Foundation
import Synchronization

/// Routes the process's own standard output and error through the redactor while a lane runs, so
/// that a Lanefile's plain `print` (or a C library writing to fd 2) cannot show a secret either.
/// Each stream is swapped for a pipe; a thread reads it line by line and writes the redacted lines
/// to the original descriptor.
final class RedactedStandardStreams: @unchecked Sendable {  // mutated only by init and restore, on one task
    private struct Stream {
        let descriptor: Int32
        let original: Int32
        let done: DispatchSemaphore
    }
    private var streams: [Stream] = []

    init(redactor: Redactor) throws {
        fflush(nil)
        for descriptor: Int32 in [1, 2] {
            var ends: [Int32] = [0, 0]
            let original = dup(descriptor)
            guard original >= 0, pipe(&ends) == 0, dup2(ends[1], descriptor) >= 0 else {
                throw LanesError(.internal, "cannot redirect standard stream \(descriptor): \(String(cString: strerror(errno)))")
            }
            close(ends[1])
            let done = DispatchSemaphore(value: 0)
            let thread = Thread { [readEnd = ends[0]] in
                Self.copyLines(from: readEnd, to: original, redactor: redactor)
                close(readEnd)
                done.signal()
            }
            thread.start()
            streams.append(Stream(descriptor: descriptor, original: original, done: done))
        }
    }

    /// Puts the original streams back and waits until everything written has been passed on.
    func restore() {
        fflush(nil)
        for stream in streams {
            dup2(stream.original, stream.descriptor)  // closes the pipe's last write end: the reader sees EOF
            stream.done.wait()
            close(stream.original)
        }
        streams = []
    }

    private static func copyLines(from input: Int32, to output: Int32, redactor: Redactor) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16384)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(input, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            if let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) {
                write(redactor.redact(String(decoding: pending[...lastNewline], as: UTF8.self)), to: output)
                pending.removeSubrange(...lastNewline)
            }
        }
        if !pending.isEmpty { write(redactor.redact(String(decoding: pending, as: UTF8.self)), to: output) }
    }

    private static func write(_ text: String, to descriptor: Int32) {
        let bytes = Array(text.utf8)
        var offset = 0
        while offset < bytes.count {
            let written = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + offset, $0.count - offset) }
            if written < 0 {
                if errno == EINTR { continue }
                return
            }
            offset += written
        }
    }
}
