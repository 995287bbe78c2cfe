internal import Foundation
internal import LanesPlatform
import Synchronization

/// Routes the process's own standard output and error through the redactor while a lane runs, so
/// that a Lanefile's plain `print` (or a C library writing to fd 2) cannot show a secret either.
/// Each stream is swapped for a pipe; a thread reads it line by line and writes the redacted lines
/// to the original descriptor. The pipes go in when the first secret registers: until then there is
/// nothing to redact, and a lane without secrets starts without them.
final class RedactedStandardStreams: Sendable {
    private struct Stream: Sendable {
        let descriptor: Int32
        let original: Int32
        let done: DispatchSemaphore
    }
    private enum State: Sendable {
        case waiting
        case redirected([Stream])
        case restored
    }
    private let state = Mutex(State.waiting)

    init() {}

    /// Swaps the streams for redacting pipes, once; later calls, and calls after `restore`, do nothing.
    func install(redactor: Redactor) {
        state.withLock { state in
            guard case .waiting = state else { return }
            // If the pipes cannot be made, output stays as it is: lanes' own lines are redacted anyway.
            state = .redirected((try? Self.redirect(redactor: redactor)) ?? [])
        }
    }

    private static func redirect(redactor: Redactor) throws -> [Stream] {
        var streams: [Stream] = []
        fflush(nil)
        for descriptor: Int32 in [1, 2] {
            var ends: [Int32] = [0, 0]
            let original = dup(descriptor)
            guard original >= 0, pipe(&ends) == 0, dup2(ends[1], descriptor) >= 0 else {
                throw LanesError(.internal, "cannot redirect standard stream \(descriptor): \(String(cString: strerror(errno)))")
            }
            close(ends[1])
            let done = DispatchSemaphore(value: 0)
            // A thread of its own: it blocks in read(2) for the whole lane, which would starve the
            // shared dispatch pool, and a Foundation Thread costs milliseconds to start.
            try startThread { [readEnd = ends[0]] in
                Self.copyLines(from: readEnd, to: original, redactor: redactor)
                close(readEnd)
                done.signal()
            }
            streams.append(Stream(descriptor: descriptor, original: original, done: done))
        }
        return streams
    }

    /// Puts the original streams back and waits until everything written has been passed on.
    func restore() {
        let streams: [Stream] = state.withLock { state in
            defer { state = .restored }
            if case .redirected(let streams) = state { return streams }
            return []
        }
        fflush(nil)
        for stream in streams {
            dup2(stream.original, stream.descriptor)  // closes the pipe's last write end: the reader sees EOF
            stream.done.wait()
            close(stream.original)
        }
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
        FileDescriptorIO.writeAll(Array(text.utf8), to: descriptor)
    }
}

/// Starts a detached POSIX thread running `body`.
private func startThread(_ body: @escaping @Sendable () -> Void) throws {
    final class Body {
        let run: @Sendable () -> Void
        init(_ run: @escaping @Sendable () -> Void) { self.run = run }
    }
    let context = Unmanaged.passRetained(Body(body)).toOpaque()
    var thread = pthread_t()
    let status = pthread_create(&thread, nil, { argument in
        Unmanaged<Body>.fromOpaque(argument!).takeRetainedValue().run()
        return nil
    }, context)
    guard status == 0 else {
        Unmanaged<Body>.fromOpaque(context).release()
        throw LanesError(.internal, "cannot start a thread: \(String(cString: strerror(status)))")
    }
    pthread_detach(thread)
}
