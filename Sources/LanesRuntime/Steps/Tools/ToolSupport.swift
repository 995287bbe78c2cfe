import LanesBuild
internal import LanesPlatform

extension StepContext {
    /// The program `name` on the lane's PATH, or an environment error saying how to get it: a tool
    /// that only exists on macOS (xcrun, notarytool) fails here at once on Linux.
    func requireTool(_ name: String, step: String, hint: String) throws -> String {
        guard let path = FilePath.which(name, path: environment["PATH"]) else {
            throw LanesError(.environment, "\(step): \(name) is not on PATH", hint: hint)
        }
        return path
    }

    /// Runs a tool with its output summarised and logged (BuildToolRun); fails naming the tool.
    @discardableResult
    func runTool(_ arguments: [String], label: String, tool: String, environment extra: [String: String] = [:],
                 workingDirectory: String? = nil) async throws -> String? {
        let run = try await BuildToolRun(context: self, label: label, showsEveryLine: true)
            .run(ToolInvocation(arguments, workingDirectory: workingDirectory), environment: extra)
        guard run.outcome.succeeded else {
            throw BuildToolFailure(tool: tool, summary: run.summary, outcome: run.outcome, logPath: run.logPath)
        }
        return run.lastLine
    }
}

/// Variables a step sets for the rest of the lane (`xcodes` sets DEVELOPER_DIR): later steps read
/// them as option fallbacks and their child processes inherit them.
public enum LaneEnvironmentAdditions: LaneValueKey {
    public typealias Value = [String: String]
}
