internal import Subprocess
internal import SystemPackage

/// Starts real child processes through swift-subprocess: argv only, no shell, the lane's
/// environment (secrets travel here, never in arguments), standard output and standard error
/// streamed line by line.
public struct SubprocessRunner: ProcessRunning, CustomStringConvertible, CustomReflectable {
    /// The complete environment children get: the lane's variables (process environment over dotenv).
    let baseEnvironment: [String: String]
    let diagnostics: Diagnostics

    public init(baseEnvironment: [String: String]) {
        self.init(baseEnvironment: baseEnvironment, diagnostics: .silent)
    }

    init(baseEnvironment: [String: String], diagnostics: Diagnostics) {
        self.baseEnvironment = baseEnvironment
        self.diagnostics = diagnostics
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
        for (name, value) in baseEnvironment.merging(request.environment, uniquingKeysWith: { $1 }) {
            if let key = Subprocess.Environment.Key(rawValue: name) { variables[key] = value }
        }
        // On Ctrl-C the lane's task is cancelled: give the child a SIGTERM and a moment to clean up
        // (xcodebuild, say) before the SIGKILL.
        var options = PlatformOptions()
        options.teardownSequence = [.gracefulShutDown(allowedDurationToNextStep: .seconds(3))]
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
                    group.addTask {
                        for try await line in execution.standardOutput.strings() { onLine(line) }
                    }
                    group.addTask {
                        for try await line in execution.standardError.strings() { onLine(line) }
                    }
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
}
