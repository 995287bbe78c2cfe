/// Everything a program gets from the operating system, in one value: its arguments and
/// environment, the signals it handles (as an `AsyncStream`), a monotonic and a wall clock, the
/// children it starts (a pid, an async output stream, an async status), and where its standard
/// output and error go. The runner and the daemon are async programs over a `Host`: their `main`s
/// make a `SystemHost`, run, and exit with the status the program returned. Tests run the same
/// programs in-process over a test host (scripted signals, a virtual clock, in-memory sinks, real
/// or recorded children), so signals, exit codes, cleanups, deadlines and shutdowns are observed
/// without a process of their own.
public protocol Host: Sendable {
    /// The program's arguments, without its own name.
    var arguments: [String] { get }
    var environment: [String: String] { get }
    var currentDirectory: String { get }
    var standardOutput: any OutputSink { get }
    var standardError: any OutputSink { get }
    /// Whether the program is this whole process (its descriptors, its crash handlers, its memory's
    /// protection), as under `SystemHost`; false for a program run inside another (a test).
    var ownsProcess: Bool { get }

    /// The signals in `numbers` (SIGINT, SIGTERM, SIGHUP) from now on, in the order they come. While
    /// the stream lives, their default action (ending the process) does not happen: the program decides.
    func signals(_ numbers: [Int32]) -> AsyncStream<Int32>

    /// The monotonic clock: durations and deadlines.
    func now() -> HostInstant
    /// The wall clock: seconds since 1970-01-01 UTC.
    func wallClock() -> Double
    /// Returns at `deadline` on the monotonic clock; throws `CancellationError` when the task is cancelled first.
    func sleep(until deadline: HostInstant) async throws

    /// Starts `child` with standard output and error on pipes (and `input`, if any, written to its
    /// standard input, then closed). Its output arrives on `HostChild.output`; its end on `status()`.
    func spawn(_ child: ChildProcess, input: [UInt8]?) throws(SpawnFailure) -> HostChild

    /// Starts `child` with its streams as `child` says (inherited, a file, /dev/null): no pipes to
    /// read. Its end comes on `status()`.
    func launch(_ child: ChildProcess) throws(SpawnFailure) -> HostChild

    /// Sends `number` to process `pid` (a negative pid: its whole group), as `kill(2)` does.
    func kill(_ pid: Int32, signal number: Int32)
}

extension Host {
    public func sleep(for duration: Duration) async throws {
        try await sleep(until: now().advanced(by: duration))
    }
}

/// An instant of a host's monotonic clock: time since the clock's origin.
public struct HostInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var sinceOrigin: Duration

    public init(sinceOrigin: Duration) { self.sinceOrigin = sinceOrigin }

    public func advanced(by duration: Duration) -> HostInstant { HostInstant(sinceOrigin: sinceOrigin + duration) }
    public func duration(to other: HostInstant) -> Duration { other.sinceOrigin - sinceOrigin }

    public static func < (lhs: HostInstant, rhs: HostInstant) -> Bool { lhs.sinceOrigin < rhs.sinceOrigin }
    public static func - (lhs: HostInstant, rhs: HostInstant) -> Duration { lhs.sinceOrigin - rhs.sinceOrigin }

    public var description: String { "\(sinceOrigin)" }
}

/// Where a program's text goes: a descriptor (the terminal, a pipe, a file) or, under a test host,
/// memory.
public protocol OutputSink: Sendable {
    /// Writes all of `bytes` before returning.
    func write(_ bytes: [UInt8])
    /// The descriptor behind the sink, when there is one (the runner redirects the process's own
    /// streams through redacting pipes only then).
    var descriptor: Int32? { get }
    var isTerminal: Bool { get }
}

/// A descriptor of this process as a sink.
public struct DescriptorSink: OutputSink {
    public let number: Int32

    public init(_ number: Int32) { self.number = number }

    public func write(_ bytes: [UInt8]) { FileDescriptorIO.writeAll(bytes, to: number) }
    public var descriptor: Int32? { number }
    public var isTerminal: Bool { isatty(number) == 1 }
}

/// A child a host started.
public final class HostChild: Sendable {
    /// Its process id, which is also its process group unless it was started in its parent's.
    public let pid: Int32
    /// Its standard output and error, chunk by chunk as they arrive; ends when both pipes have
    /// closed, or a short while after the child ended while a grandchild holds them open.
    public let output: ChildOutput
    private let ending: ChildEnding

    public init(pid: Int32, output: ChildOutput, ending: ChildEnding) {
        self.pid = pid
        self.output = output
        self.ending = ending
    }

    /// Waits until the child has ended and been reaped.
    public func status() async -> WaitStatus { await ending.wait() }

    /// The status if the child has ended, without waiting.
    public var endedStatus: WaitStatus? { ending.current }
}
