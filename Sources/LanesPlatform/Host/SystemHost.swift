#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The real host: this process's arguments, environment and descriptors, the system's clocks, and
/// children started through `ChildProcess` and watched by the one monitor thread (`HostMonitor`).
public struct SystemHost: Host {
    public let arguments: [String]
    public let environment: [String: String]
    public let currentDirectory: String
    public let standardOutput: any OutputSink = DescriptorSink(1)
    public let standardError: any OutputSink = DescriptorSink(2)
    public var ownsProcess: Bool { true }
    private let origin: ContinuousClock.Instant

    /// The process as it started: `CommandLine.arguments` without the program, its environment and directory.
    public init() {
        self.init(arguments: Array(CommandLine.arguments.dropFirst()), environment: ProcessEnvironment.current(),
                  currentDirectory: ProcessEnvironment.currentDirectory())
    }

    public init(arguments: [String], environment: [String: String], currentDirectory: String) {
        self.arguments = arguments
        self.environment = environment
        self.currentDirectory = currentDirectory
        origin = ContinuousClock.now
        // An ignored SIGCHLD (inherited across exec) would reap children before the monitor can.
        var current = sigaction()
        if sigaction(SIGCHLD, nil, &current) == 0, SignalHandler.isIgnored(current) { signal(SIGCHLD, SIG_DFL) }
    }

    /// Ends the process with `status` once the program has returned it: the one way a `main` exits.
    public static func exit(_ status: Int32) -> Never {
        fflush(nil)
        exitProcess(status)
    }

    public func signals(_ numbers: [Int32]) -> AsyncStream<Int32> {
        HostMonitor.process.signals(numbers)
    }

    public func now() -> HostInstant { HostInstant(sinceOrigin: ContinuousClock.now - origin) }

    public func wallClock() -> Double {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
    }

    public func sleep(until deadline: HostInstant) async throws {
        try await Task.sleep(until: origin + deadline.sinceOrigin, clock: .continuous)
    }

    public func spawn(_ child: ChildProcess, input: [UInt8]?) throws(SpawnFailure) -> HostChild {
        try Self.spawn(child, input: input)
    }

    public func launch(_ child: ChildProcess) throws(SpawnFailure) -> HostChild {
        try Self.launch(child)
    }

    public func kill(_ pid: Int32, signal number: Int32) {
        Self.kill(pid, signal: number)
    }

    public static func kill(_ pid: Int32, signal number: Int32) {
        _ = sendSignal(pid, number)
    }

    /// Starts `child` with its output on pipes the monitor reads (what `spawn` does); for any host
    /// that starts real processes.
    /// A child whose `standardError` is `.standardOutput` writes both streams to one pipe (as
    /// `2>&1`), every chunk reported as standard output: a line it starts on one and ends on the
    /// other is one line, in the order it wrote them.
    public static func spawn(_ child: ChildProcess, input: [UInt8]?) throws(SpawnFailure) -> HostChild {
        let program = child.arguments.first ?? ""
        let merging = child.standardError == .standardOutput
        var output: [Int32] = [-1, -1], errors: [Int32] = [-1, -1], stdin: [Int32] = [-1, -1]
        guard pipe(&output) == 0 else { throw SpawnFailure(program: program, code: errno) }
        guard merging || pipe(&errors) == 0 else {
            let code = errno
            output.forEach { close($0) }
            throw SpawnFailure(program: program, code: code)
        }
        if input != nil, pipe(&stdin) != 0 {
            let code = errno
            (output + errors).forEach { close($0) }
            throw SpawnFailure(program: program, code: code)
        }
        let parentEnds = [output[0], errors[0], stdin[1]].filter { $0 >= 0 }
        for descriptor in parentEnds { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        var started = child
        started.standardOutput = .descriptor(output[1])
        started.standardError = merging ? .standardOutput : .descriptor(errors[1])
        started.standardInput = input == nil ? .null : .descriptor(stdin[0])
        started.closeInChild = child.closeInChild + parentEnds + [output[1], errors[1], stdin[0]].filter { $0 > 2 }
        let pid: Int32
        do {
            pid = try started.start()
        } catch {
            (output + errors + stdin).filter { $0 >= 0 }.forEach { close($0) }
            throw error
        }
        [output[1], errors[1], stdin[0]].filter { $0 >= 0 }.forEach { close($0) }
        let monitor = HostMonitor.process
        let stream = ChildOutput(onRoom: { monitor.outputHasRoom() })
        let ending = ChildEnding()
        monitor.watch(pid: pid, standardOutput: output[0], standardError: errors[0], input: input.map { (stdin[1], $0) },
                      output: stream, ending: ending)
        return HostChild(pid: pid, output: stream, ending: ending)
    }

    /// Starts `child` with its streams as it says; the monitor watches only its end.
    public static func launch(_ child: ChildProcess) throws(SpawnFailure) -> HostChild {
        let pid = try child.start()
        let stream = ChildOutput()
        let ending = ChildEnding()
        HostMonitor.process.watch(pid: pid, standardOutput: -1, standardError: -1, input: nil, output: stream, ending: ending)
        return HostChild(pid: pid, output: stream, ending: ending)
    }
}

/// The C library's `exit`, named apart from `SystemHost.exit`.
private func exitProcess(_ status: Int32) -> Never { exit(status) }

/// The C library's `kill`, named apart from `SystemHost.kill`.
private func sendSignal(_ pid: Int32, _ number: Int32) -> Int32 { kill(pid, number) }

/// Printed or dumped (a `StepContext` in a log, a test's failure message), the host names its size,
/// never its environment's values or its arguments, which may hold secrets.
extension SystemHost: CustomStringConvertible, CustomReflectable {
    public var description: String { "SystemHost(\(arguments.count) arguments, \(environment.count) variables)" }
    public var customMirror: Mirror { Mirror(self, children: ["description": description]) }
}
