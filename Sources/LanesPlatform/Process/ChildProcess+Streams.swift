#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension ChildProcess {
    /// Which of the child's streams a chunk of output came from.
    public enum OutputStream: Sendable { case standardOutput, standardError }

    /// Starts the child with standard output and error on pipes (and `input`, if any, written to
    /// its standard input, then closed), hands each chunk of output to `onOutput`, and waits for it
    /// to end. Blocks the calling thread: call it from a thread of its own. `started` hears the
    /// process id (its process group) before any output, so that a canceller can end the group.
    ///
    /// Output is read until both pipes close, or until the child has ended and its pipes have
    /// been quiet for 300 ms: a background grandchild that keeps them open does not hold the caller.
    /// The child's end wakes the wait where the OS gives it as a descriptor (`ChildHandle`); only
    /// elsewhere is it checked every 100 ms. Async code uses `Host.spawn` instead.
    ///
    /// With `mergingStandardError`, the child's standard error is its standard output's pipe (as
    /// `2>&1`), and every chunk is reported as standard output: what the child wrote to both comes
    /// in the order it wrote it, and a line it starts on one and ends on the other is one line.
    public func runCapturingOutput(input: [UInt8]?, mergingStandardError: Bool = false, started: (Int32) -> Void,
                                   onOutput: (OutputStream, UnsafeRawBufferPointer) -> Void) throws(SpawnFailure) -> WaitStatus {
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1], stdin: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw SpawnFailure(program: arguments.first ?? "", code: errno) }
        guard mergingStandardError || pipe(&errors) == 0 else {
            let code = errno
            output.forEach { close($0) }
            throw SpawnFailure(program: arguments.first ?? "", code: code)
        }
        if input != nil, pipe(&stdin) != 0 {
            let code = errno
            (output + errors).forEach { close($0) }
            throw SpawnFailure(program: arguments.first ?? "", code: code)
        }
        let parentEnds = [output[0], errors[0], stdin[1]].filter { $0 >= 0 }
        for descriptor in parentEnds { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var child = self
        child.standardOutput = .descriptor(output[1])
        child.standardError = .descriptor(mergingStandardError ? output[1] : errors[1])
        child.standardInput = input == nil ? .null : .descriptor(stdin[0])
        child.closeInChild = parentEnds + [output[1], errors[1], stdin[0]].filter { $0 > 2 }
        let pid: Int32
        do {
            pid = try child.start()
        } catch {
            (output + errors + stdin).filter { $0 >= 0 }.forEach { close($0) }
            throw error
        }
        [output[1], errors[1], stdin[0]].filter { $0 >= 0 }.forEach { close($0) }
        started(pid)

        var open: [(descriptor: Int32, stream: OutputStream?)] = [(output[0], .standardOutput)]
        if !mergingStandardError { open.append((errors[0], .standardError)) }
        var pendingInput = input.map { ArraySlice($0) } ?? []
        if input != nil {
            _ = fcntl(stdin[1], F_SETFL, fcntl(stdin[1], F_GETFL) | O_NONBLOCK)
            Self.protectFromPipeSignal(writeEnd: stdin[1])
            if pendingInput.isEmpty { close(stdin[1]) } else { open.append((stdin[1], nil)) }
        }
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        var ended: WaitStatus?
        var quietAfterEnd = 0
        var handle = ChildHandle.open(pid)
        defer { if handle >= 0 { close(handle) } }
        while !open.isEmpty {
            var pollers = open.map { pollfd(fd: $0.descriptor, events: Int16($0.stream == nil ? POLLOUT : POLLIN), revents: 0) }
            if handle >= 0 { pollers.append(pollfd(fd: handle, events: Int16(POLLIN), revents: 0)) }
            // Without a handle the end is checked every 100 ms; with one, only the quiet window times out.
            let timeout: Int32 = handle >= 0 && ended == nil ? -1 : 100
            let ready = poll(&pollers, nfds_t(pollers.count), timeout)
            if ready < 0 && errno != EINTR { break }
            if handle >= 0, let last = pollers.last, last.revents != 0 {
                pollers.removeLast()
                // The end of the last round may have reaped it already: a second waitpid finds no child.
                if ended == nil { ended = Self.reapIfEnded(pid) }
                close(handle)
                handle = -1
            } else if handle >= 0 {
                pollers.removeLast()
            }
            var closed: Set<Int32> = []
            for (index, poller) in pollers.enumerated() where poller.revents != 0 && index < open.count {
                let entry = open[index]
                if let stream = entry.stream {
                    let count = buffer.withUnsafeMutableBytes { read(entry.descriptor, $0.baseAddress, $0.count) }
                    if count > 0 {
                        buffer.withUnsafeBytes { onOutput(stream, UnsafeRawBufferPointer(rebasing: $0[0..<count])) }
                    } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
                        closed.insert(entry.descriptor)
                    }
                } else {
                    let written = pendingInput.withUnsafeBytes { write(entry.descriptor, $0.baseAddress, $0.count) }
                    if written > 0 { pendingInput = pendingInput.dropFirst(written) }
                    if written < 0 && errno == EPIPE { Self.discardPipeSignal() }
                    if pendingInput.isEmpty || (written < 0 && errno != EINTR && errno != EAGAIN) { closed.insert(entry.descriptor) }
                }
            }
            for descriptor in closed { close(descriptor) }
            open.removeAll { closed.contains($0.descriptor) }
            if ended == nil { ended = Self.reapIfEnded(pid) }
            if ended != nil, ready == 0 {
                quietAfterEnd += 1
                if quietAfterEnd >= 3 { break }
            }
        }
        open.forEach { close($0.descriptor) }
        return ended ?? Self.wait(pid)
    }
}
