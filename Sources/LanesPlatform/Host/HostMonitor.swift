#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one thread that waits on the operating system for a `SystemHost`: every child's pipes, every
/// child's end and the signals programs asked for, in one `poll`. No thread per child and no poll
/// interval: it sleeps until a descriptor is ready, a signal comes, or (only while a child that has
/// ended still has pipes a grandchild holds open) the end of that child's quiet window.
///
/// A child's end comes as a descriptor where the OS has one (Linux's pidfd, `ChildHandle+Linux`);
/// elsewhere through SIGCHLD, whose handler (installed only then) writes to the monitor's signal
/// pipe, after which each watched child is reaped with `waitpid(pid, WNOHANG)`, never `waitpid(-1)`:
/// children the program starts without the host stay its own.
///
/// Signals are process-wide, and a signal handler can reach only a global, so there is one monitor
/// per process (`HostMonitor.process`), as there is one `CrashGuard`.
final class HostMonitor: Sendable {
    static let process = HostMonitor()

    /// How long a child that has ended keeps its pipes read while a grandchild holds them open:
    /// a background process does not hold the step, and what it prints at once is not lost.
    /// The window restarts with every read: a child's own last output still in the pipe when the
    /// monitor is late (a loaded machine) is read, not cut; `lingerLimit` bounds a grandchild that
    /// never stops printing.
    static let quietWindow: Duration = .milliseconds(300)
    static let lingerLimit: Duration = .seconds(10)

    private struct Pipe {
        let descriptor: Int32
        let stream: ChildStream
    }

    private struct Watch {
        let pid: Int32
        /// The child's end as a descriptor, or -1 (then SIGCHLD tells).
        var handle: Int32
        var pipes: [Pipe]
        var input: (descriptor: Int32, pending: ArraySlice<UInt8>)?
        let output: ChildOutput?
        let ending: ChildEnding
        var status: WaitStatus?
        /// Set when the child ended while its pipes were open: after this they are closed.
        var quietUntil: Duration?
        /// When the quiet window can no longer be extended.
        var lingerUntil: Duration?
        /// The buffer was full while the window ran: the window starts again once there is room
        /// (a slow reader is not a quiet child).
        var awaitingRoom = false
    }

    private struct Subscriber {
        let id: Int
        let numbers: Set<Int32>
        let continuation: AsyncStream<Int32>.Continuation
    }

    private struct State {
        var started = false
        var watches: [Int32: Watch] = [:]
        var subscribers: [Subscriber] = []
        var nextSubscriber = 0
        /// Signals whose handler writes to the signal pipe.
        var handled: Set<Int32> = []
    }

    private let state = PlatformMutex(State())
    /// Written to make the monitor look at its watches again.
    private let wakeRead: Int32
    private let wakeWrite: Int32
    private let signalRead: Int32

    /// The signal pipe's write end, for the handlers: set once, before any handler is installed.
    nonisolated(unsafe) private static var signalWrite: Int32 = -1

    private init() {
        var wake: [Int32] = [-1, -1], signals: [Int32] = [-1, -1]
        _ = pipe(&wake)
        _ = pipe(&signals)
        for end in wake + signals where end >= 0 {
            _ = fcntl(end, F_SETFD, FD_CLOEXEC)
            _ = fcntl(end, F_SETFL, fcntl(end, F_GETFL) | O_NONBLOCK)
        }
        wakeRead = wake[0]
        wakeWrite = wake[1]
        signalRead = signals[0]
        Self.signalWrite = signals[1]
    }

    // MARK: Children

    /// Watches a started child: its pipes (read into `output`), the bytes still to write to its
    /// standard input, and its end.
    func watch(pid: Int32, standardOutput: Int32, standardError: Int32, input: (Int32, [UInt8])?,
               output: ChildOutput?, ending: ChildEnding) {
        var pipes: [Pipe] = []
        for (descriptor, stream) in [(standardOutput, ChildStream.standardOutput), (standardError, .standardError)] where descriptor >= 0 {
            _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
            pipes.append(Pipe(descriptor: descriptor, stream: stream))
        }
        var pending: (Int32, ArraySlice<UInt8>)?
        if let (descriptor, bytes) = input {
            if bytes.isEmpty {
                close(descriptor)
            } else {
                _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) | O_NONBLOCK)
                ChildProcess.protectFromPipeSignal(writeEnd: descriptor)
                pending = (descriptor, bytes[...])
            }
        }
        let handle = ChildHandle.open(pid)
        if handle < 0 { handleSignal(SIGCHLD) }
        let watch = Watch(pid: pid, handle: handle, pipes: pipes, input: pending, output: output, ending: ending)
        state.withLock { $0.watches[pid] = watch }
        if pipes.isEmpty { output?.finish() }
        startIfNeeded()
        wake()
    }

    // MARK: Signals

    /// A stream of the signals in `numbers`; their handlers stay installed while any stream wants them.
    func signals(_ numbers: [Int32]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        let id = state.withLock { state -> Int in
            state.nextSubscriber += 1
            state.subscribers.append(Subscriber(id: state.nextSubscriber, numbers: Set(numbers), continuation: continuation))
            return state.nextSubscriber
        }
        for number in numbers { handleSignal(number) }
        // A parent may have started this process with them blocked (a thread pool's worker blocks
        // signals, and a spawned child keeps its parent thread's mask).
        var unblock = sigset_t()
        sigemptyset(&unblock)
        for number in numbers { sigaddset(&unblock, number) }
        pthread_sigmask(SIG_UNBLOCK, &unblock, nil)
        startIfNeeded()
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(id) }
        return stream
    }

    private func unsubscribe(_ id: Int) {
        let released: [Int32] = state.withLock { state in
            state.subscribers.removeAll { $0.id == id }
            let wanted = state.subscribers.reduce(into: Set<Int32>()) { $0.formUnion($1.numbers) }
            let released = state.handled.filter { $0 != SIGCHLD && !wanted.contains($0) }
            state.handled.subtract(released)
            return Array(released)
        }
        for number in released { signal(number, SIG_DFL) }
    }

    private func handleSignal(_ number: Int32) {
        let install = state.withLock { state in state.handled.insert(number).inserted }
        guard install else { return }
        // SA_RESTART keeps other threads' blocking calls from failing with EINTR.
        SignalHandler.install(number, flags: Int32(SA_RESTART)) { number in
            var byte = UInt8(truncatingIfNeeded: number)
            let saved = errno
            _ = write(HostMonitor.signalWrite, &byte, 1)  // a full pipe: the wake-up is already pending
            errno = saved
        }
    }

    // MARK: The thread

    private func wake() {
        var byte: UInt8 = 1
        _ = write(wakeWrite, &byte, 1)
    }

    private func startIfNeeded() {
        let start = state.withLock { state in
            defer { state.started = true }
            return !state.started
        }
        guard start else { return }
        do {
            try PlatformThread.detach { [self] in run() }
        } catch {
            // No thread: nothing would ever be read or reaped. Say so where a person looks.
            FileDescriptorIO.writeAll(Array("lanes: cannot start the host's monitor thread: \(error)\n".utf8), to: 2)
        }
    }

    private enum Source {
        case wake, signals
        case pipe(pid: Int32, index: Int)
        case input(pid: Int32)
        case handle(pid: Int32)
    }

    private func run() {
        // Writes to a child's standard input must fail with EPIPE, not raise SIGPIPE in this process.
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
        var buffer = [UInt8](repeating: 0, count: 64 * 1024)
        while true {
            var descriptors = [pollfd(fd: wakeRead, events: Int16(POLLIN), revents: 0), pollfd(fd: signalRead, events: Int16(POLLIN), revents: 0)]
            var sources: [Source] = [.wake, .signals]
            var deadline: Duration?
            let now = Self.monotonicNow()
            state.withLock { state in
                for (pid, watch) in state.watches {
                    if var quiet = watch.quietUntil {
                        if !(watch.output?.hasRoom ?? true) {
                            state.watches[pid]?.awaitingRoom = true
                            quiet = watch.lingerUntil ?? quiet  // the room callback wakes the monitor before then
                        } else if watch.awaitingRoom {
                            quiet = now + Self.quietWindow
                            state.watches[pid]?.quietUntil = quiet
                            state.watches[pid]?.awaitingRoom = false
                        }
                        deadline = min(deadline ?? quiet, quiet)
                    }
                    if watch.output?.hasRoom ?? true {
                        for (index, pipe) in watch.pipes.enumerated() {
                            descriptors.append(pollfd(fd: pipe.descriptor, events: Int16(POLLIN), revents: 0))
                            sources.append(.pipe(pid: pid, index: index))
                        }
                    }
                    if let input = watch.input {
                        descriptors.append(pollfd(fd: input.descriptor, events: Int16(POLLOUT), revents: 0))
                        sources.append(.input(pid: pid))
                    }
                    if watch.status == nil, watch.handle >= 0 {
                        descriptors.append(pollfd(fd: watch.handle, events: Int16(POLLIN), revents: 0))
                        sources.append(.handle(pid: pid))
                    }
                }
            }
            var timeout: Int32 = -1
            if let deadline {
                let left = deadline - Self.monotonicNow()
                timeout = left <= .zero ? 0 : Int32(min(60_000, (Double(left.components.seconds) * 1000 + Double(left.components.attoseconds) / 1e15).rounded(.up)))
            }
            let ready = poll(&descriptors, nfds_t(descriptors.count), timeout)
            if ready < 0 && errno != EINTR { continue }
            var reapAll = false
            for (index, descriptor) in descriptors.enumerated() where descriptor.revents != 0 {
                switch sources[index] {
                case .wake:
                    drain(wakeRead)
                    reapAll = true  // a new watch: its child may have ended before it was watched
                case .signals:
                    for number in drain(signalRead) {
                        if Int32(number) == SIGCHLD { reapAll = true } else { deliver(Int32(number)) }
                    }
                case .pipe(let pid, let pipeIndex):
                    read(pid: pid, pipe: pipeIndex, into: &buffer)
                case .input(let pid):
                    writeInput(pid: pid)
                case .handle(let pid):
                    reap(pid)
                }
            }
            if reapAll { for pid in state.withLock({ $0.watches.filter { $0.value.status == nil }.map(\.key) }) { reap(pid) } }
            closeQuietPipes()
        }
    }

    /// Reads what is waiting in `descriptor` (the wake and signal pipes); the bytes.
    @discardableResult
    private func drain(_ descriptor: Int32) -> [UInt8] {
        var bytes: [UInt8] = []
        var chunk = [UInt8](repeating: 0, count: 64)
        while true {
            let count = chunk.withUnsafeMutableBytes { readDescriptor(descriptor, $0.baseAddress, $0.count) }
            guard count > 0 else { return bytes }
            bytes += chunk[0..<count]
        }
    }

    private func deliver(_ number: Int32) {
        let receivers = state.withLock { $0.subscribers.filter { $0.numbers.contains(number) }.map(\.continuation) }
        for receiver in receivers { receiver.yield(number) }
    }

    private func read(pid: Int32, pipe index: Int, into buffer: inout [UInt8]) {
        guard let (pipe, output) = state.withLock({ state -> (Pipe, ChildOutput?)? in
            guard let watch = state.watches[pid], index < watch.pipes.count else { return nil }
            return (watch.pipes[index], watch.output)
        }) else { return }
        let count = buffer.withUnsafeMutableBytes { readDescriptor(pipe.descriptor, $0.baseAddress, $0.count) }
        if count > 0 {
            output?.yield(ChildOutputChunk(stream: pipe.stream, bytes: Array(buffer[0..<count])))
            extendQuietWindow(of: pid)
        } else if count == 0 || (errno != EINTR && errno != EAGAIN) {
            closePipe(pid: pid, descriptor: pipe.descriptor)
        }
    }

    private func writeInput(pid: Int32) {
        state.withLock { state in
            guard var watch = state.watches[pid], var input = watch.input else { return }
            let written = input.pending.withUnsafeBytes { write(input.descriptor, $0.baseAddress, $0.count) }
            if written > 0 { input.pending = input.pending.dropFirst(written) }
            if written < 0 && errno == EPIPE { ChildProcess.discardPipeSignal() }
            if input.pending.isEmpty || (written < 0 && errno != EINTR && errno != EAGAIN) {
                close(input.descriptor)
                watch.input = nil
            } else {
                watch.input = input
            }
            state.watches[pid] = watch
        }
    }

    private func closePipe(pid: Int32, descriptor: Int32) {
        close(descriptor)
        let finished: ChildOutput? = state.withLock { state in
            guard var watch = state.watches[pid] else { return nil }
            watch.pipes.removeAll { $0.descriptor == descriptor }
            let done = watch.pipes.isEmpty
            if done { watch.quietUntil = nil }
            state.watches[pid] = watch
            if done && watch.status != nil { forget(pid, in: &state) }
            return done ? watch.output : nil
        }
        finished?.finish()
    }

    /// Reaps `pid` if it has ended: records its status and starts its pipes' quiet window.
    private func reap(_ pid: Int32) {
        var raw: Int32 = 0
        var result: Int32
        repeat { result = waitpid(pid, &raw, WNOHANG) } while result < 0 && errno == EINTR
        let status: WaitStatus
        if result == pid {
            status = WaitStatus(raw: raw)
        } else if result < 0 && errno == ECHILD {
            ChildProcess.reportLostStatus(pid)
            status = .exited(127)  // reaped by someone else: its status is lost
        } else {
            return
        }
        let ending: ChildEnding? = state.withLock { state in
            guard var watch = state.watches[pid], watch.status == nil else { return nil }
            watch.status = status
            if watch.handle >= 0 { close(watch.handle) }
            watch.handle = -1
            if watch.pipes.isEmpty {
                state.watches[pid] = watch
                forget(pid, in: &state)
            } else {
                let now = Self.monotonicNow()
                watch.quietUntil = now + Self.quietWindow
                watch.lingerUntil = now + Self.lingerLimit
                state.watches[pid] = watch
            }
            return watch.ending
        }
        ending?.end(status)
    }

    /// A child that ended and whose pipes stayed quiet for the window: its output ends here.
    private func closeQuietPipes() {
        let now = Self.monotonicNow()
        let expired: [(ChildOutput?, [Int32])] = state.withLock { state in
            var expired: [(ChildOutput?, [Int32])] = []
            for (pid, watch) in state.watches {
                guard let quiet = watch.quietUntil else { continue }
                // Unread output waits for room (at most until `lingerUntil`, for a reader that never reads).
                if watch.awaitingRoom || !(watch.output?.hasRoom ?? true) {
                    guard let linger = watch.lingerUntil, linger <= now else { continue }
                } else {
                    guard quiet <= now else { continue }
                }
                expired.append((watch.output, watch.pipes.map(\.descriptor)))
                forget(pid, in: &state)
            }
            return expired
        }
        for (output, descriptors) in expired {
            descriptors.forEach { close($0) }
            output?.finish()
        }
    }

    /// Output arrived after the child ended: the pipes are not quiet yet (up to `lingerUntil`).
    private func extendQuietWindow(of pid: Int32) {
        let now = Self.monotonicNow()
        state.withLock { state in
            guard var watch = state.watches[pid], watch.quietUntil != nil, let limit = watch.lingerUntil else { return }
            watch.quietUntil = min(now + Self.quietWindow, limit)
            state.watches[pid] = watch
        }
    }

    private func forget(_ pid: Int32, in state: inout State) {
        guard let watch = state.watches.removeValue(forKey: pid) else { return }
        if let input = watch.input { close(input.descriptor) }
        if watch.handle >= 0 { close(watch.handle) }
    }

    /// A child's output buffer has room again: read its pipes.
    func outputHasRoom() { wake() }

    static func monotonicNow() -> Duration {
        var time = timespec()
        clock_gettime(CLOCK_MONOTONIC, &time)
        return .seconds(Int64(time.tv_sec)) + .nanoseconds(Int64(time.tv_nsec))
    }
}

/// `read(2)`, named apart from the monitor's own `read` method.
private func readDescriptor(_ descriptor: Int32, _ buffer: UnsafeMutableRawPointer?, _ count: Int) -> Int {
    read(descriptor, buffer, count)
}
