import LanesPlatform
import Synchronization

/// A host for running the runner or the daemon in the test process: signals the test sends
/// (`send(_:)`), a virtual clock the test moves (`clock.advance(by:)`), standard output and error in
/// memory, and children that are real processes (`SystemHost`'s spawn, watched by the same monitor
/// thread) or recorded ones (`recorder`), whose pids no real process can have.
public final class TestHost: Host {
    public let arguments: [String]
    public let environment: [String: String]
    public let currentDirectory: String
    public let output = MemorySink()
    public let errors = MemorySink()
    public let clock: VirtualClock
    /// Answers a spawn with a recorded child, or nil to start the real program.
    public let recorder: (@Sendable (ChildProcess) -> RecordedChild?)?

    private let subscribers = Mutex<[(numbers: Set<Int32>, continuation: AsyncStream<Int32>.Continuation)]>([])
    private let spawned = Mutex<[ChildProcess]>([])
    /// Recorded children by pid, for the signals the program sends them.
    private let recorded = Mutex<[Int32: RecordedChild]>([:])
    private let nextRecordedPid = Atomic<Int32>(0)

    public init(arguments: [String] = [], environment: [String: String] = [:], currentDirectory: String = "/",
                clock: VirtualClock = VirtualClock(), recorder: (@Sendable (ChildProcess) -> RecordedChild?)? = nil) {
        self.arguments = arguments
        self.environment = environment
        self.currentDirectory = currentDirectory
        self.clock = clock
        self.recorder = recorder
    }

    public var standardOutput: any OutputSink { output }
    public var standardError: any OutputSink { errors }
    public var ownsProcess: Bool { false }

    // MARK: Signals

    public func signals(_ numbers: [Int32]) -> AsyncStream<Int32> {
        let (stream, continuation) = AsyncStream<Int32>.makeStream()
        subscribers.withLock { $0.append((Set(numbers), continuation)) }
        return stream
    }

    /// Delivers `signal` as the OS would to the program's streams that asked for it; false when none did.
    @discardableResult
    public func send(_ signal: Int32) -> Bool {
        let receivers = subscribers.withLock { $0.filter { $0.numbers.contains(signal) }.map(\.continuation) }
        for receiver in receivers { receiver.yield(signal) }
        return !receivers.isEmpty
    }

    /// Waits until the program listens for `signal` (so that a test's signal is not sent too early).
    public func waitUntilListening(for signal: Int32, within limit: Duration = .seconds(60)) async -> Bool {
        await eventually(within: limit) { self.subscribers.withLock { $0.contains { $0.numbers.contains(signal) } } }
    }

    // MARK: Clocks

    public func now() -> HostInstant { clock.now }
    public func wallClock() -> Double { clock.wallClock }
    public func sleep(until deadline: HostInstant) async throws { try await clock.sleep(until: deadline) }

    // MARK: Children

    /// Every child the program asked for, in order.
    public var spawnedChildren: [ChildProcess] { spawned.withLock { $0 } }

    public func spawn(_ child: ChildProcess, input: [UInt8]?) throws(SpawnFailure) -> HostChild {
        spawned.withLock { $0.append(child) }
        if let recorded = recorder?(child) { return start(recorded) }
        return try SystemHost.spawn(child, input: input)
    }

    public func launch(_ child: ChildProcess) throws(SpawnFailure) -> HostChild {
        spawned.withLock { $0.append(child) }
        if let recorded = recorder?(child) { return start(recorded) }
        return try SystemHost.launch(child)
    }

    /// Starts `child` as the recorded `answer` (the recorder is not asked).
    public func launch(_ child: ChildProcess, answer: RecordedChild) -> HostChild {
        spawned.withLock { $0.append(child) }
        return start(answer)
    }

    /// Signals to a recorded child (or its group) go to its script; any other pid is a real process.
    public func kill(_ pid: Int32, signal number: Int32) {
        if let child = recorded.withLock({ $0[abs(pid)] }) {
            child.signals.continuation.yield(number)
        } else {
            SystemHost.kill(pid, signal: number)
        }
    }

    /// Recorded children get pids above Linux's largest (2^22), so a real `kill` aimed at one reaches nothing.
    private func start(_ child: RecordedChild) -> HostChild {
        let pid = (1 << 22) + 1000 + nextRecordedPid.add(1, ordering: .relaxed).newValue
        recorded.withLock { $0[pid] = child }
        let output = ChildOutput()
        let ending = ChildEnding()
        Task {
            for chunk in child.chunks { output.yield(chunk) }
            output.finish()
            let status = await child.status(child.signals.stream)
            ending.end(status)
        }
        return HostChild(pid: pid, output: output, ending: ending)
    }
}

/// A child a test scripted: what it prints, and how it ends, given the signals the program sends it.
public final class RecordedChild: Sendable {
    public let chunks: [ChildOutputChunk]
    let status: @Sendable (AsyncStream<Int32>) async -> WaitStatus
    let signals = AsyncStream<Int32>.makeStream()

    /// Prints, then ends at once with `status`.
    public convenience init(output: String = "", errors: String = "", status: WaitStatus = .exited(0)) {
        self.init(output: output, errors: errors) { _ in status }
    }

    /// Prints, then ends when `status` returns; it reads the signals the program sends the child.
    public init(output: String = "", errors: String = "", status: @escaping @Sendable (_ signals: AsyncStream<Int32>) async -> WaitStatus) {
        var chunks: [ChildOutputChunk] = []
        if !output.isEmpty { chunks.append(ChildOutputChunk(stream: .standardOutput, bytes: Array(output.utf8))) }
        if !errors.isEmpty { chunks.append(ChildOutputChunk(stream: .standardError, bytes: Array(errors.utf8))) }
        self.chunks = chunks
        self.status = status
    }

    /// A child that runs until one of `endingSignals` comes (SIGKILL always ends it).
    public static func runsUntil(_ endingSignals: Set<Int32> = [SIGTERM, SIGINT], output: String = "") -> RecordedChild {
        RecordedChild(output: output) { signals in
            for await number in signals where endingSignals.contains(number) || number == SIGKILL { return .signaled(number) }
            return .signaled(SIGKILL)
        }
    }
}

/// Text a program wrote, kept in memory; a test can wait for a piece of it.
public final class MemorySink: OutputSink {
    private let state = Mutex<(bytes: [UInt8], waiters: [(String, CheckedContinuation<Void, Never>)])>(([], []))

    public init() {}

    public func write(_ bytes: [UInt8]) {
        let ready = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            state.bytes += bytes
            let text = String(decoding: state.bytes, as: UTF8.self)
            let (met, waiting) = state.waiters.reduce(into: ([CheckedContinuation<Void, Never>](), [(String, CheckedContinuation<Void, Never>)]())) {
                if text.contains($1.0) { $0.0.append($1.1) } else { $0.1.append($1) }
            }
            state.waiters = waiting
            return met
        }
        ready.forEach { $0.resume() }
    }

    public var descriptor: Int32? { nil }
    public var isTerminal: Bool { false }

    public var text: String { String(decoding: state.withLock { $0.bytes }, as: UTF8.self) }
    public var lines: [String] { text.split(separator: "\n", omittingEmptySubsequences: false).dropLast().map(String.init) }

    /// Returns once the text holds `piece` (at once if it already does).
    public func waitFor(_ piece: String) async {
        await withCheckedContinuation { continuation in
            let met = state.withLock { state -> Bool in
                if String(decoding: state.bytes, as: UTF8.self).contains(piece) { return true }
                state.waiters.append((piece, continuation))
                return false
            }
            if met { continuation.resume() }
        }
    }
}

/// A monotonic and a wall clock that move only when a test says: sleepers wake in deadline order
/// as `advance` passes their deadlines, so a 30 s grace period takes no time at all.
public final class VirtualClock: Sendable {
    private struct Sleeper {
        let id: Int
        let deadline: HostInstant
        let continuation: CheckedContinuation<Void, any Error>
    }

    private struct State {
        var now = HostInstant(sinceOrigin: .zero)
        var wall: Double
        var sleepers: [Sleeper] = []
        var nextID = 0
        /// Tasks in `waitForSleepers`: an id (to remove one on cancellation), the count each waits for.
        var sleepWaiters: [(id: Int, count: Int, continuation: CheckedContinuation<Void, Never>)] = []
    }

    private let state: Mutex<State>

    /// Starts at `wallClock` seconds since 1970 (2026-11-23T00:00:00Z by default).
    public init(wallClock: Double = 1_795_392_000) {
        state = Mutex(State(wall: wallClock))
    }

    public var now: HostInstant { state.withLock { $0.now } }
    public var wallClock: Double { state.withLock { $0.wall } }
    /// How many tasks sleep on this clock now.
    public var sleeperCount: Int { state.withLock { $0.sleepers.count } }
    /// The earliest deadline a task sleeps until.
    public var nextDeadline: HostInstant? { state.withLock { $0.sleepers.map(\.deadline).min() } }

    public func sleep(until deadline: HostInstant) async throws {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
                enum Next { case due, cancelled, sleeping([CheckedContinuation<Void, Never>]) }
                let next = state.withLock { state -> Next in
                    if deadline <= state.now { return .due }
                    // Cancelled before this sleeper was recorded: the handler found nothing to wake.
                    if Task.isCancelled { return .cancelled }
                    state.sleepers.append(Sleeper(id: id, deadline: deadline, continuation: continuation))
                    let count = state.sleepers.count
                    let ready = state.sleepWaiters.filter { $0.count <= count }.map(\.continuation)
                    state.sleepWaiters.removeAll { $0.count <= count }
                    return .sleeping(ready)
                }
                switch next {
                case .due: continuation.resume()
                case .cancelled: continuation.resume(throwing: CancellationError())
                case .sleeping(let waiters): waiters.forEach { $0.resume() }
                }
            }
        } onCancel: {
            let sleeper = state.withLock { state -> Sleeper? in
                guard let index = state.sleepers.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepers.remove(at: index)
            }
            sleeper?.continuation.resume(throwing: CancellationError())
        }
    }

    /// Moves both clocks forward by `duration`, waking every sleeper whose deadline it passes, in order.
    public func advance(by duration: Duration) {
        let woken = state.withLock { state -> [Sleeper] in
            state.now = state.now.advanced(by: duration)
            state.wall += Double(duration.components.seconds) + Double(duration.components.attoseconds) / 1e18
            let due = state.sleepers.filter { $0.deadline <= state.now }.sorted { $0.deadline < $1.deadline }
            state.sleepers.removeAll { $0.deadline <= state.now }
            return due
        }
        for sleeper in woken { sleeper.continuation.resume() }
    }

    /// Moves to the earliest deadline anyone sleeps until (if any); the time moved.
    @discardableResult
    public func advanceToNextDeadline() -> Duration? {
        guard let next = nextDeadline else { return nil }
        let step = max(.zero, next - now)
        advance(by: step)
        return step
    }

    /// Sets the wall clock alone (the system clock set by hand or by NTP).
    public func setWallClock(_ seconds: Double) { state.withLock { $0.wall = seconds } }

    /// Returns once at least `count` tasks sleep on this clock, or when the waiting task is cancelled.
    public func waitForSleepers(_ count: Int = 1) async {
        let id = state.withLock { state -> Int in
            state.nextID += 1
            return state.nextID
        }
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                let met = state.withLock { state -> Bool in
                    if state.sleepers.count >= count || Task.isCancelled { return true }
                    state.sleepWaiters.append((id, count, continuation))
                    return false
                }
                if met { continuation.resume() }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
                guard let index = state.sleepWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.sleepWaiters.remove(at: index).continuation
            }
            waiter?.resume()
        }
    }

    /// Runs `work` while moving the clock to each next deadline as soon as anything sleeps on it, so
    /// that every wait of a program on this clock ends in order, however late its sleeper appears;
    /// what `work` returned.
    public func advancingToEachDeadline<T: Sendable>(during work: @escaping @Sendable () async -> T) async -> T {
        let driver = Task {
            while !Task.isCancelled {
                await waitForSleepers()
                advanceToNextDeadline()
            }
        }
        let result = await work()
        driver.cancel()
        await driver.value
        return result
    }
}

/// Checks `condition` until it holds or `limit` of real time passed, yielding between checks
/// (never blocking a thread of the cooperative pool); whether it held.
public func eventually(within limit: Duration = .seconds(60), _ condition: @Sendable () -> Bool) async -> Bool {
    let clock = ContinuousClock()
    let deadline = clock.now + limit
    var pause: Duration = .milliseconds(1)
    while clock.now < deadline {
        if condition() { return true }
        try? await Task.sleep(for: pause)
        pause = min(pause * 2, .milliseconds(50))
    }
    return condition()
}
