internal import Subprocess
internal import SystemPackage

/// Starts real child processes through swift-subprocess: argv only, no shell, the lane's
/// environment (secrets travel here, never in arguments), standard output and standard error
/// streamed line by line (lines of any length; see `LineSplitter`).
///
/// Each child starts in a process group of its own, and cancelling the lane (Ctrl-C, a CI abort, a
/// timeout) ends the whole group: `sh -c "sleep 60 & wait"` leaves nothing running behind lanes.
public struct SubprocessRunner: ProcessRunning, CustomStringConvertible, CustomReflectable {
    /// The complete environment children get: the lane's variables (process environment over dotenv).
    let baseEnvironment: [String: String]
    let diagnostics: Diagnostics
    /// The longest registered secret, so that long lines are never cut inside one.
    let longestSecret: @Sendable () -> Int
    /// The lane's values, for variables earlier steps added for later children (`ChildProcessEnvironment`).
    let laneValues: LaneValues?

    public init(baseEnvironment: [String: String], redactor: Redactor? = nil) {
        self.init(baseEnvironment: baseEnvironment, diagnostics: .silent, redactor: redactor)
    }

    init(baseEnvironment: [String: String], diagnostics: Diagnostics, redactor: Redactor? = nil, laneValues: LaneValues? = nil) {
        self.baseEnvironment = baseEnvironment
        self.laneValues = laneValues
        self.diagnostics = diagnostics
        self.longestSecret = { redactor?.longestSecretLength ?? 0 }
    }

    /// Names no variable: the environment holds secrets.
    public var description: String { "SubprocessRunner(\(baseEnvironment.count) variables)" }
    public var customMirror: Mirror { Mirror(self, children: [:]) }

    public func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
        guard let program = request.arguments.first else {
            throw LanesError(.usage, "no command given to run")
        }
        let executable: Executable = program.contains("/") ? .path(FilePath(program)) : .name(program)
        diagnostics.debug("starting \(program) with \(request.arguments.count - 1) arguments in \(request.workingDirectory ?? ".")")
        var variables: [Subprocess.Environment.Key: String] = [:]
        let added = laneValues?[ChildProcessEnvironment.self] ?? [:]
        for (name, value) in baseEnvironment.merging(added, uniquingKeysWith: { $1 }).merging(request.environment, uniquingKeysWith: { $1 }) {
            if let key = Subprocess.Environment.Key(rawValue: name) { variables[key] = value }
        }
        // On Ctrl-C the lane's task is cancelled: give the child's whole process group a SIGTERM
        // and a moment to clean up (xcodebuild, say) before the SIGKILL. A group of its own (0:
        // the child's pid) keeps lanes itself out of the signal.
        var options = PlatformOptions()
        options.processGroupID = 0
        options.teardownSequence = [.gracefulShutDown(toProcessGroup: true, allowedDurationToNextStep: .seconds(3))]
        let longestSecret = self.longestSecret
        let result: ExecutionResult<Void, SequenceOutput, SequenceOutput>
        do {
            result = try await Subprocess.run(
                executable,
                arguments: Arguments(Array(request.arguments.dropFirst())),
                environment: .custom(variables),
                workingDirectory: request.workingDirectory.map { FilePath($0) },
                platformOptions: options,
                input: .array(request.standardInput ?? []),
                output: .sequence,
                error: .sequence
            ) { execution in
                try await withThrowingTaskGroup(of: Void.self) { group in
                    group.addTask { try await Self.forEachLine(of: execution.standardOutput, longestSecret, onLine) }
                    group.addTask { try await Self.forEachLine(of: execution.standardError, longestSecret, onLine) }
                    try await group.waitForAll()
                }
            }
        } catch let error as SubprocessError {
            throw LanesError(.environment, "could not start \(program): \(error)",
                             hint: "check that \(program) is installed and on PATH")
        }
        switch result.terminationStatus {
        case .exited(let code): return ProcessOutcome(termination: .exited(code))
        case .signaled(let signal): return ProcessOutcome(termination: .signaled(signal))
        }
    }

    private static func forEachLine(of output: SubprocessOutputSequence, _ longestSecret: @escaping @Sendable () -> Int,
                                    _ onLine: @Sendable (String) -> Void) async throws {
        var splitter = LineSplitter(holdBack: longestSecret)
        for try await chunk in output {
            chunk.withUnsafeBytes { splitter.feed($0, emit: onLine) }
        }
        splitter.finish(emit: onLine)
    }
}
