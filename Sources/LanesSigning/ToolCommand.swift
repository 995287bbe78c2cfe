/// A child process to run, as a plain value: argv (no shell) and bytes for standard input.
/// Secrets travel only in `standardInput`, never in `arguments`.
public struct ToolCommand: Sendable, Hashable {
    public let arguments: [String]
    public let standardInput: [UInt8]?
    /// What the command does, for logs and errors; never contains a secret.
    public let summary: String

    public init(_ arguments: [String], standardInput: [UInt8]? = nil, summary: String) {
        self.arguments = arguments
        self.standardInput = standardInput
        self.summary = summary
    }
}

/// How a tool run ended.
public struct ToolResult: Sendable, Equatable {
    public let exitStatus: Int32
    /// Standard output and error, merged.
    public let output: String

    public init(exitStatus: Int32, output: String) {
        self.exitStatus = exitStatus
        self.output = output
    }
}

/// Runs `ToolCommand`s. `Lanes` adapts its `ProcessRunning` to this, so LanesSigning builds the
/// commands and stays free of process handling; tests use a recording stand-in.
public protocol ToolRunning: Sendable {
    func run(_ command: ToolCommand) async throws -> ToolResult
}
