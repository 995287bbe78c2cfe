internal import Foundation
internal import LanesPlatform
import Synchronization

/// Routes the process's own standard output and error through the redactor while a lane runs, so
/// that a Lanefile's plain `print` (or a C library writing to fd 2) cannot show a secret either.
/// Each stream is swapped for a pipe; a thread reads it line by line and writes the redacted lines
/// to the original descriptor. The pipes go in when the first secret registers (until then there is
/// nothing to redact), or at once in `--json` mode, where each printed line must become an event.
///
/// lanes' own text output goes through the pipe too (the pipe is then its last gate, and keeps it in
/// order with what the Lanefile printed). In `--json` mode its encoded lines do not: redacting an
/// encoded line again could break its structure when a secret is `"` or `1`. They go straight to the
/// original descriptor once the pipe has been drained, so they too stay in order.
final class RedactedStandardStreams: Sendable {
    /// Lines longer than this are passed on in pieces (a secret is never split between pieces).
    static let longestLine = 64 * 1024

    final class Stream: Sendable {
        let descriptor: Int32
        let original: Int32
        let readEnd: Int32
        let done: ThreadSemaphore
        /// Whether printed lines are wrapped (`--json` events) rather than passed on as they are.
        let formatsLines: Bool
        /// True while the reader holds bytes it took from the pipe and has not written yet.
        let busy = Mutex(false)

        init(descriptor: Int32, original: Int32, readEnd: Int32, formatsLines: Bool) {
            self.descriptor = descriptor
            self.original = original
            self.readEnd = readEnd
            self.formatsLines = formatsLines
            self.done = ThreadSemaphore()
        }
    }
    private enum State: Sendable {
        case waiting
        case redirected([Stream])
        case restored
    }
    private let state = Mutex(State.waiting)
    /// lanes' own text, in order, whether the streams are redirected or not (see `OutputQueue`).
    let queue = OutputQueue()
    /// How a line the Lanefile printed on standard output is passed on (`--json` wraps it); nil
    /// passes the bytes on as they are.
    private let formatPrintedLine: (@Sendable (String) -> String)?

    init(formatPrintedLine: (@Sendable (String) -> String)? = nil) {
        self.formatPrintedLine = formatPrintedLine
    }

    /// Swaps the streams for redacting pipes, once; later calls, and calls after `restore`, do nothing.
    func install(redactor: Redactor) {
        state.withLock { state in
            guard case .waiting = state else { return }
            // If the pipes cannot be made, output stays as it is: lanes' own lines are redacted anyway.
            state = .redirected((try? Self.redirect(redactor: redactor, format: formatPrintedLine)) ?? [])
        }
    }

    private static func redirect(redactor: Redactor, format: (@Sendable (String) -> String)?) throws -> [Stream] {
        var streams: [Stream] = []
        fflush(nil)
        for descriptor: Int32 in [1, 2] {
            var ends: [Int32] = [0, 0]
            let original = dup(descriptor)
            guard original >= 0, pipe(&ends) == 0, dup2(ends[1], descriptor) >= 0 else {
                throw LanesError(.internal, "cannot redirect standard stream \(descriptor): \(String(cString: strerror(errno)))")
            }
            close(ends[1])
            _ = fcntl(original, F_SETFD, FD_CLOEXEC)
            _ = fcntl(ends[0], F_SETFD, FD_CLOEXEC)
            let lineFormat = descriptor == 1 ? format : nil
            let stream = Stream(descriptor: descriptor, original: original, readEnd: ends[0], formatsLines: lineFormat != nil)
            // A thread of its own: it blocks in poll(2) for the whole lane, which would starve the
            // shared dispatch pool, and a Foundation Thread costs milliseconds to start.
            try startThread {
                Self.copyLines(of: stream, redactor: redactor, format: lineFormat)
                close(stream.readEnd)
                stream.done.post()
            }
            streams.append(stream)
        }
        return streams
    }

    /// How lanes' own output reaches `descriptor` now.
    enum Route {
        /// Not redirected: redact, then write to the descriptor.
        case plain
        /// Into the redacting pipe, which is the last gate and keeps the order with what the
        /// Lanefile printed; nothing to redact beforehand. (A step's output, redacted already,
        /// goes past it to the stream's real descriptor: `TextOutput.writeOutputLines`.)
        case throughPipe(Stream)
        /// Encoded output (`--json`) whose structure the pipe's redaction could break: straight to
        /// the real descriptor, once the pipe is drained.
        case direct(Stream)
    }

    func route(for descriptor: Int32) -> Route {
        let stream: Stream? = state.withLock { state in
            if case .redirected(let streams) = state { return streams.first { $0.descriptor == descriptor } }
            return nil
        }
        guard let stream else { return .plain }
        return stream.formatsLines ? .direct(stream) : .throughPipe(stream)
    }

    /// Writes encoded output to the real descriptor behind `stream`, after what the Lanefile
    /// printed before it.
    static func writeDirect(_ bytes: [UInt8], to stream: Stream) {
        fflush(nil)
        Self.drain(stream)
        FileDescriptorIO.writeAll(bytes, to: stream.original)
    }

    /// Waits until the reader has passed on everything written to the pipe so far.
    private static func drain(_ stream: Stream) {
        while true {
            let idle = stream.busy.withLock { busy in !busy && FileDescriptorIO.pendingBytes(in: stream.readEnd) == 0 }
            if idle { return }
            sched_yield()
        }
    }

    /// Puts the original streams back and waits until everything written has been passed on.
    func restore() {
        queue.flush()
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

    /// For a crash handler: puts the original streams back and gives the readers up to `timeout`
    /// to pass on what the crashing code wrote (the runtime's own message, say). Uses only calls
    /// that are safe in a signal handler; the readers do the work on their own threads.
    func restoreAfterCrash(waitingAtMost timeout: Duration) {
        guard let streams = state.withLockIfAvailable({ state -> [Stream] in
            if case .redirected(let streams) = state { return streams }
            return []
        }) else { return }
        for stream in streams { dup2(stream.original, stream.descriptor) }
        for stream in streams { stream.done.wait(timeout: timeout) }
    }

    private static func copyLines(of stream: Stream, redactor: Redactor, format: (@Sendable (String) -> String)?) {
        var pending: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 65536)
        var poller = pollfd(fd: stream.readEnd, events: Int16(POLLIN), revents: 0)
        while true {
            // Wait without taking the bytes, then mark busy before reading: `drain` must never see
            // an empty pipe while bytes are in this thread's hands.
            if poll(&poller, 1, -1) < 0 {
                if errno == EINTR { continue }
                break
            }
            stream.busy.withLock { $0 = true }
            let count = buffer.withUnsafeMutableBytes { read(stream.readEnd, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { stream.busy.withLock { $0 = false }; continue }
            if count <= 0 { break }
            pending.append(contentsOf: buffer[0..<count])
            if let lastNewline = pending.lastIndex(of: UInt8(ascii: "\n")) {
                passOn(pending[...lastNewline], to: stream.original, redactor: redactor, format: format)
                pending.removeSubrange(...lastNewline)
            }
            if pending.count > longestLine {
                // Pass on up to where no secret is cut in two; keep the rest for what follows.
                let cut = pending.withUnsafeBufferPointer { redactor.safeCut(in: $0) }
                if cut > 0 {
                    passOn(pending[..<cut], to: stream.original, redactor: redactor, format: format, completeLine: false)
                    pending.removeFirst(cut)
                }
            }
            stream.busy.withLock { $0 = false }
        }
        if !pending.isEmpty { passOn(pending[...], to: stream.original, redactor: redactor, format: format, completeLine: false) }
        stream.busy.withLock { $0 = false }
    }

    private static func passOn(_ bytes: ArraySlice<UInt8>, to descriptor: Int32, redactor: Redactor,
                               format: (@Sendable (String) -> String)?, completeLine: Bool = true) {
        let redacted = bytes.withUnsafeBufferPointer { redactor.redact(bytes: $0) } ?? Array(bytes)
        guard let format else {
            FileDescriptorIO.writeAll(redacted, to: descriptor)
            return
        }
        var output = ""
        var lines = redacted.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false)
        if completeLine { lines.removeLast() }  // what follows the last newline: nothing
        for line in lines {
            let content = line.last == UInt8(ascii: "\r") ? line.dropLast() : line
            output += format(String(decoding: content, as: UTF8.self)) + "\n"
        }
        FileDescriptorIO.writeAll(Array(output.utf8), to: descriptor)
    }
}

/// Starts a detached POSIX thread running `body`.
private func startThread(_ body: @escaping @Sendable () -> Void) throws {
    do { try PlatformThread.detach(body) } catch { throw LanesError(.internal, error.message) }
}
