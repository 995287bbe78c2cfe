/// `sh`: runs a command as an argv array (no shell unless you ask for one with `sh -c`), streams its
/// output line by line, and fails with the command, its exit status and its last lines of output.
public struct ShellCommand: Step {
    public static let definition = StepDefinition(
        id: "sh",
        summary: "Run a command (argv, no shell) and stream its output",
        category: .shell,
        examples: [
            StepExample(swift: #"try await sh("swift", "--version")"#, commandLine: ["command:swift,--version"]),
            StepExample(swift: #"try await sh("sh", "-c", "echo hello | tr a-z A-Z")"#, commandLine: ["command:echo,hello"]),
            StepExample(swift: #"try await sh("make", "lint", directory: "Example")"#, commandLine: ["command:make,lint", "directory:Example"]),
        ]
    )

    @StepOption("command", "The program and its arguments (comma-separated on the command line)", swift: .variadic)
    var arguments: [String]
    @StepOption("directory", "Working directory, relative to the Lanefile")
    var directory: String?

    public init() {}

    public var banner: String { arguments.joined(separator: " ") }

    public func run(in context: StepContext) async throws -> ShellResult {
        guard !arguments.isEmpty else { throw LanesError(.usage, "sh: no command given") }
        let redactor = context.environment.redactor
        let secretsAtStart = redactor.registeredCount
        // The log redacts each line once, for the terminal, the events and this result alike.
        let collected = LineCollector(byteLimit: ShellResult.keptOutputBytes)
        let outcome = try await context.processes.run(
            ProcessRequest(arguments, workingDirectory: directory.map(context.resolve) ?? context.projectDirectory),
            log: context.log, collector: collected)
        guard outcome.succeeded else {
            throw ShellFailure(command: context.environment.redactor.redact(banner), outcome: outcome,
                               outputTail: context.log.lastLines)
        }
        let dropped = collected.droppedCount
        if dropped > 0 {
            context.log.line("sh: the result keeps the first \(ShellResult.keptOutputBytes >> 20) MiB of output; the \(dropped) lines after it were shown, not kept")
        }
        return ShellResult(output: collected.lines(redactedBy: redactor, secretsWhenStarted: secretsAtStart),
                           droppedLineCount: dropped)
    }
}

/// What a successful `sh` printed, already redacted.
public struct ShellResult: Sendable {
    /// Output beyond this many bytes is shown and logged but not kept in the result, so a command
    /// that prints gigabytes (an xcodebuild log, a line without end) leaves lanes' memory flat.
    public static let keptOutputBytes = 16 << 20

    public let output: [String]
    /// Lines printed after the first `keptOutputBytes` (0 unless the output was that long).
    public var droppedLineCount = 0
    public var text: String { output.joined(separator: "\n") }
}

/// A command that exited non-zero or was killed.
public struct ShellFailure: Error, Sendable, CustomStringConvertible {
    public let command: String
    public let outcome: ProcessOutcome
    public let outputTail: [String]

    public var description: String {
        let status = switch outcome.termination {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "was killed by signal \(signal)"
        }
        var text = "command `\(command)` \(status)"
        if !outputTail.isEmpty {
            text += "\nlast lines of output:\n" + outputTail.map { "  | \($0)" }.joined(separator: "\n")
        }
        return text
    }
}

/// `sh(["program", "arg"])`: the same as `sh("program", "arg")` with an array.
@discardableResult
public func sh(_ arguments: [String], directory: String? = nil) async throws -> ShellResult {
    try await runStep(ShellCommand.self, ["command": arguments, "directory": directory])
}

extension ShellResult: CustomStringConvertible {
    public var description: String { text }
}
