import LanesPlatform

/// `lanes`: lanes go straight to the compiled Lanefile; subcommands (`init`, `actions`, `run`, `cron`,
/// ...) are served by `lanes-tool`, which has the argument parser and every library. Keeping this
/// binary free of Foundation, OpenSSL and libgit2 keeps a warm `lanes LANE` within a few milliseconds.
let arguments = Array(CommandLine.arguments.dropFirst())
let environment = ProcessEnvironment.current()
do {
    let installation = try Installation.locate(environment: environment)
    let driver = LaneDriver(arguments: arguments, environment: environment, installation: installation)
    switch DriverCommandLine.request(for: arguments) {
    case .version:
        driver.printVersion()
        exit(0)
    case .tool:
        try Exec.replaceProcess(with: installation.toolExecutable, arguments: ["lanes"] + arguments)
    case .toolWithProject(let compile):
        try driver.runToolWithProject(compile: compile)
    case .toolWithPackageSteps:
        try driver.runToolWithPackageSteps()
    case .completeLanes:
        driver.completeLanes()
        exit(0)
    case .lane:
        try driver.run()
    }
} catch let error as DriverError {
    // Messages carry outside text (the compiler's diagnostics quote the Lanefile): shown, not obeyed.
    if !error.message.isEmpty { writeStandardError("error: \(TerminalText.visible(error.shapedDescription, keepingLineBreaks: true))") }
    exit(error.exitStatus)
} catch let error as any ClassifiedError {
    writeStandardError("error: \(TerminalText.visible(error.shapedDescription, keepingLineBreaks: true))")
    exit(error.lanesKind.exitStatus)
} catch {
    writeStandardError("error: \(TerminalText.visible("\(error)", keepingLineBreaks: true))")
    exit(ErrorKind.configuration.exitStatus)
}
