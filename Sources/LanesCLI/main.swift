import ArgumentParser
import Lanes
import LanesPlatform

/// `lanes-tool`: the subcommands of `lanes` (the driver execs this binary for them).
do {
    let arguments = Array(CommandLine.arguments.dropFirst())
    if let request = ToolRequest(arguments) {
        TextOutput.standardOutput(Redactor()).write(try request.respond(environment: ProcessEnvironment.current()))
        exit(0)
    }
    var command = try LanesCommand.parseAsRoot(arguments)
    if var asyncCommand = command as? any AsyncParsableCommand {
        try await asyncCommand.runAsynchronously()
    } else {
        try command.run()
    }
} catch let error as any ClassifiedError {
    // Every module's errors have the one shape: message, hint, and a kind that picks the exit status.
    // A message may quote a server, a file or a tool: its control characters are shown, not obeyed.
    TextOutput.standardError(Redactor()).writeLine("error: \(TerminalText.visible(error.shapedDescription, keepingLineBreaks: true))")
    exit(error.lanesKind.exitStatus)
} catch {
    LanesCommand.exit(withError: error)
}

extension AsyncParsableCommand {
    /// Calls the async `run()`: on an existential, the plain call picks the synchronous
    /// requirement inherited from `ParsableCommand`, which only prints help.
    mutating func runAsynchronously() async throws {
        let asyncRun: (inout Self) async throws -> Void = { try await $0.run() }
        try await asyncRun(&self)
    }
}
