import Synchronization
internal import Foundation
internal import LanesPlatform

/// Starts real child processes through the platform's one launcher (`ChildProcess`): argv only,
/// no shell, the lane's environment (secrets travel here, never in arguments), standard output
/// and standard error on one pipe, streamed line by line (lines of any length; see `LineSplitter`).
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
        self.init(baseEnvironment: baseEnvironment, diagnostics: .silent, redactor: redactor)
    }

    init(baseEnvironment: [String: String], diagnostics: Diagnostics, redactor: Redactor? = nil,
         lane: LaneProcesses = LaneProcesses()) {
        self.baseEnvironment = baseEnvironment
        self.diagnostics = diagnostics
        self.redactor = redactor
        self.lane = lane
    }

    /// Names no variable: the environment holds secrets.
    public var description: String { "SubprocessRunner(\(baseEnvironment.count) variables)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    public func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
        guard let program = request.arguments.first else {
            throw LanesError(.usage, "no command given to run")
        }
        diagnostics.debug("starting \(program) with \(request.arguments.count - 1) arguments in \(request.workingDirectory ?? ".")")
        let tag = ProcessTags.newTag()
        // Variables earlier steps set for the lane (LaneEnvironmentAdditions) come in through the
        // request: LaneRun wraps this runner in OverlaidProcesses.
        var environment = baseEnvironment.merging(request.environment, uniquingKeysWith: { $1 })
        environment = ProcessTags.adding(tag, to: ProcessTags.adding(lane.tag, to: environment))
        let child = ChildProcess(request.arguments, environment: environment, workingDirectory: request.workingDirectory)
        let started = StartedGroup()
        let lane = self.lane, redactor = self.redactor
        let status: WaitStatus = try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<WaitStatus, any Error>) in
                Thread.detachNewThread {
                    // One pipe for both streams: a secret the child starts on standard output and
                    // ends on standard error is one line, redacted whole, as a terminal shows it.
                    var output = LineSplitter(redactor: redactor)
                    do throws(SpawnFailure) {
                        let status = try child.runCapturingOutput(input: request.standardInput, mergingStandardError: true, started: { pid in
                            lane.started(group: pid)
                            // Cancelled before the child existed: end it now.
                            if started.record(pid) { lane.stop(group: pid, tag: tag) }
                        }) { _, bytes in
                            output.feed(bytes, emit: onLine)
                        }
                        output.finish(emit: onLine)
                        if let pid = started.pid { lane.reaped(group: pid) }
                        continuation.resume(returning: status)
                    } catch {
                        continuation.resume(throwing: LanesError(.environment, "could not start \(program): \(error)",
                                                                 hint: "check that \(program) is installed and on PATH"))
                    }
                }
            }
        } onCancel: {
            // SIGTERM to the group and its tagged escapees, SIGKILL after the grace period.
            if let pid = started.cancel() { lane.stop(group: pid, tag: tag) }
        }
        switch status {
        case .exited(let code): return ProcessOutcome(termination: .exited(code))
        case .signaled(let signal): return ProcessOutcome(termination: .signaled(signal))
        }
    }
}

/// The child's group once it exists, and whether the step was cancelled before that.
private final class StartedGroup: Sendable {
    private let state = Mutex<(pid: Int32?, cancelled: Bool)>((nil, false))

    /// Records the child; true when it must be ended at once.
    func record(_ pid: Int32) -> Bool {
        state.withLock { state in
            state.pid = pid
            return state.cancelled
        }
    }

    var pid: Int32? { state.withLock { $0.pid } }

    /// Marks the step cancelled; the child to end, if it already exists.
    func cancel() -> Int32? {
        state.withLock { state in
            state.cancelled = true
            return state.pid
        }
    }
}
