import LanesPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `lanes`: lanes go straight to the compiled Lanefile; subcommands (`init`, `actions`, `run`, `cron`,
/// ...) are served by `lanes-tool`, which has the argument parser and every library. Keeping this
/// binary free of Foundation, OpenSSL and libgit2 keeps a warm `lanes LANE` within a few milliseconds.
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()
do {
    let installation = try Installation.locate(environment: environment)
    if DriverCommandLine.isSubcommand(arguments) {
        try Exec.replaceProcess(with: installation.toolExecutable, arguments: ["lanes"] + arguments)
    }
    try LaneDriver(arguments: arguments, environment: environment, installation: installation).run()
} catch let error as DriverError {
    writeStandardError("error: \(error)")
    exit(error.exitStatus)
} catch {
    writeStandardError("error: \(error)")
    exit(DriverError.configuration)
}
