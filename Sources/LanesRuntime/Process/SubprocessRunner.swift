import Synchronization
internal import LanesPlatform

/// Starts real child processes through the host (`Host.spawn`, over the platform's one launcher,
/// `ChildProcess`): argv only, no shell, the lane's environment (secrets travel here, never in
/// arguments), standard output and standard error on one pipe, streamed line by line (lines of any
/// length; see `LineSplitter`). No thread waits for the child: the host's one monitor thread reads
/// its pipe and learns of its end.
///
/// Each child starts in a process group of its own with default signal handling, and carries the
/// lane's and its own tag (`ProcessTags`). Cancelling the step (Ctrl-C, a CI abort, a timeout)
/// ends the whole group and everything carrying its tag, `setsid` escapees included: SIGTERM,
/// then SIGKILL after the grace period, even when the direct child exited at once.
public struct SubprocessRunner: ProcessRunning, CustomStringConvertible, CustomReflectable {
    /// The complete environment children get: the lane's variables (process environment over dotenv).
    let baseEnvironment: [String: String]
    let diagnostics: Diagnostics
    /// The run's secrets, so that long lines are never cut inside one.
    let redactor: Redactor?
    /// What this lane started, to end at cancellation and when the lane ends.
    let lane: LaneProcesses

    public init(baseEnvironment: [String: String], redactor: Redactor? = nil) {
        self.init(baseEnvironment: baseEnvironment, diagnostics: .silent, redactor: redactor, lane: LaneProcesses(host: SystemHost()))
    }

    init(baseEnvironment: [String: String], diagnostics: Diagnostics, redactor: Redactor? = nil, lane: LaneProcesses) {
        self.baseEnvironment = baseEnvironment
        self.diagnostics = diagnostics
        self.redactor = redactor
        self.lane = lane
    }

    /// Names no variable: the environment holds secrets.
    public var description: String { "SubprocessRunner(\(baseEnvironment.count) variables)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    public func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
        try await run(request, read: { output, bytes in output.feed(bytes, emit: onLine) }, finish: { $0.finish(emit: onLine) })
    }

    /// Each read's complete lines go to the log as one batch, straight from the chunk: no `String` per
    /// line; the log redacts them once, for the terminal, the events and the collector alike.
    public func run(_ request: ProcessRequest, log: StepLog, collector: LineCollector?) async throws -> ProcessOutcome {
        let lines: (UnsafeBufferPointer<UInt8>) -> Void = { lines in
            log.lines(lines, collectingInto: collector)
        }
        return try await run(request, read: { output, bytes in output.feed(bytes, emitLines: lines) },
                             finish: { $0.finish(emitLines: lines) })
    }

    private func run(_ request: ProcessRequest, read: (inout LineSplitter, UnsafeRawBufferPointer) -> Void,
                     finish: (inout LineSplitter) -> Void) async throws -> ProcessOutcome {
        guard let program = request.arguments.first else {
            throw LanesError(.usage, "no command given to run")
        }
        diagnostics.debug("starting \(program) with \(request.arguments.count - 1) arguments in \(request.workingDirectory ?? ".")")
        let tag = ProcessTags.newTag()
        // Variables earlier steps set for the lane (LaneEnvironmentAdditions) come in through the
        // request: LaneRun wraps this runner in OverlaidProcesses.
        var environment = baseEnvironment.merging(request.environment, uniquingKeysWith: { $1 })
        environment = ProcessTags.adding(tag, to: ProcessTags.adding(lane.tag, to: environment))
        var process = ChildProcess(request.arguments, environment: environment, workingDirectory: request.workingDirectory)
        process.standardError = .standardOutput  // one pipe for both (see `SystemHost.spawn`)
        let child: HostChild
        do {
            child = try lane.host.spawn(process, input: request.standardInput)
        } catch {
            throw LanesError(.environment, "could not start \(program): \(error)", hint: "check that \(program) is installed and on PATH")
        }
        let lane = self.lane, redactor = self.redactor
        lane.started(group: child.pid)
        let status: WaitStatus = await withTaskCancellationHandler {
            // Read to the end even when cancelled: the group is being ended, and its last lines
            // (what xcodebuild says as it stops) still belong to the step. One pipe for both
            // streams: a secret the child starts on standard output and ends on standard error is
            // one line, redacted whole, as a terminal shows it.
            var output = LineSplitter(redactor: redactor)
            for await chunk in child.output {
                chunk.bytes.withUnsafeBytes { bytes in read(&output, bytes) }
            }
            finish(&output)
            return await child.status()
        } onCancel: {
            // SIGTERM to the group and its tagged escapees, SIGKILL after the grace period.
            lane.stop(group: child.pid, leader: child, tag: tag)
        }
        lane.reaped(group: child.pid)
        switch status {
        case .exited(let code): return ProcessOutcome(termination: .exited(code))
        case .signaled(let signal): return ProcessOutcome(termination: .signaled(signal))
        }
    }
}
