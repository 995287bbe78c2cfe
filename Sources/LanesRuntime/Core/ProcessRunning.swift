/// A child process to start: argv (no shell), extra environment, working directory, input.
public struct ProcessRequest: Sendable {
    public var arguments: [String]
    /// Variables added to (or replacing) the lane's environment; secrets travel here, never in argv.
    public var environment: [String: String]
    public var workingDirectory: String?
    /// Bytes written to standard input, then closed; secrets may travel here too.
    public var standardInput: [UInt8]?

    public init(_ arguments: [String], environment: [String: String] = [:], workingDirectory: String? = nil,
                standardInput: [UInt8]? = nil) {
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
        self.standardInput = standardInput
    }
}

/// How a child process ended.
public struct ProcessOutcome: Sendable, Equatable {
    public enum Termination: Sendable, Equatable {
        case exited(Int32)
        case signaled(Int32)
    }
    public let termination: Termination

    public init(termination: Termination) { self.termination = termination }
    public var succeeded: Bool { termination == .exited(0) }
}

/// Starts child processes and streams their merged output line by line. The live implementation
/// (`SubprocessRunner`) uses the platform's one launcher, `LanesPlatform.ChildProcess`; a tool that cannot exist on Linux (`xcodebuild`, `security`) sits
/// behind this protocol with a recorded stand-in in tests.
public protocol ProcessRunning: Sendable {
    func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome
    /// The same, with the output going to `log` in batches of whole lines (redacted once, there)
    /// and to `collector`, redacted (once, by the log): the fast path of a step that shows what its
    /// child prints (`sh`). By default each line goes to both.
    func run(_ request: ProcessRequest, log: StepLog, collector: LineCollector?) async throws -> ProcessOutcome
}

extension ProcessRunning {
    public func run(_ request: ProcessRequest, log: StepLog, collector: LineCollector?) async throws -> ProcessOutcome {
        try await run(request) { line in
            log.line(line, collectingInto: collector)
        }
    }
}
