import Lanes
#if canImport(Glibc)
import Glibc
#endif

/// Lanes go straight to the driver's hot path; everything else is a subcommand parsed by
/// swift-argument-parser.
let arguments = Array(CommandLine.arguments.dropFirst())
if LanesCommand.handles(arguments) {
    await LanesCommand.main()
} else {
    do {
        try await LaneDriver(arguments: arguments, environment: ProcessEnvironment.current()).run()
    } catch {
        TextOutput.standardError(Redactor()).writeLine("error: \(error)")
        exit(error.lanesKind.exitStatus)
    }
}
