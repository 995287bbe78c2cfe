import LanesSigning
import Synchronization

/// Runs LanesSigning's `ToolCommand`s (the macOS `security` invocations) through the lane's
/// `ProcessRunning`, so they are started, logged and replaced in tests like every other child.
struct ProcessToolRunner: ToolRunning {
    let processes: any ProcessRunning

    func run(_ command: ToolCommand) async throws -> ToolResult {
        let lines = Mutex<[String]>([])
        let request = ProcessRequest(command.arguments, standardInput: command.standardInput)
        let outcome = try await processes.run(request) { line in lines.withLock { $0.append(line) } }
        let status: Int32 = switch outcome.termination {
        case let .exited(code): code
        case let .signaled(signal): 128 + signal
        }
        return ToolResult(exitStatus: status, output: lines.withLock { $0.joined(separator: "\n") })
    }
}
