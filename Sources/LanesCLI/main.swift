import ArgumentParser
import Lanes
#if canImport(Glibc)
import Glibc
#endif

/// Lanes go straight to the driver's hot path; everything else is a subcommand parsed by
/// swift-argument-parser.
let arguments = Array(CommandLine.arguments.dropFirst())
if LanesCommand.handles(arguments) {
    do {
        var command = try LanesCommand.parseAsRoot(arguments)
        if var asyncCommand = command as? any AsyncParsableCommand {
            try await asyncCommand.runAsynchronously()
        } else {
            try command.run()
        }
    } catch {
        LanesCommand.exit(withError: error)
    }
} else {
    do {
        try await LaneDriver(arguments: arguments, environment: ProcessEnvironment.current()).run()
    } catch {
        TextOutput.standardError(Redactor()).writeLine("error: \(error)")
        exit(error.lanesKind.exitStatus)
    }
}

extension AsyncParsableCommand {
    /// Calls the async `run()`: on an existential, the plain call picks the synchronous
    /// requirement inherited from `ParsableCommand`, which only prints help.
    mutating func runAsynchronously() async throws {
        let asyncRun: (inout Self) async throws -> Void = { try await $0.run() }
        try await asyncRun(&self)
    }
}
