public import LanesPlatform  // Host in the public signatures
import LanesSigning
import Synchronization

/// The program of a compiled Lanefile: the `lanes` driver compiles `Lanefile.swift` together with
/// a tiny entry file that calls `LanefileRunner.main(lanes)`, and execs the result. `main` runs the
/// program over the real host and exits with the status it returns; tests run the same program
/// in-process over a test host (`run(_:host:)`).
public enum LanefileRunner {
    public static func main(_ lanefile: Lanefile) async -> Never {
        SystemHost.exit(await run(lanefile, host: SystemHost()))
    }

    /// Runs the Lanefile as `host.arguments` ask; the exit status.
    public static func run(_ lanefile: Lanefile, host: any Host) async -> Int32 {
        await run(lanefile, arguments: host.arguments, host: host)
    }

    /// Runs the Lanefile as `words` ask (a lane and its options, `list`, a package's step), as
    /// `lanes` would with those words; the exit status.
    public static func run(_ lanefile: Lanefile, arguments words: [String], host: any Host) async -> Int32 {
        let errors = TextOutput(sink: host.standardError, redactor: Redactor(), streams: nil)
        // A user's Lanefile is checked as values first; `lanes run STEP` builds a one-lane Lanefile
        // named after the step, which may share a subcommand's name (`upload`) by design.
        do {
            try lanefile.validate()
        } catch {
            errors.writeLine("error: \(TerminalText.visible("\(error)", keepingLineBreaks: true))")
            return error.lanesKind.exitStatus
        }
        switch words.first {
        case PackageStepRequest.list:
            // `lanes actions`: what `lanes-tool` cannot know, the steps from packages.
            TextOutput(sink: host.standardOutput, redactor: Redactor(), streams: nil).write(lanefile.packageStepsJSON().serialized + "\n")
            return 0
        case PackageStepRequest.run:
            // `lanes run ID`: a package's step, run like one of lanes' own.
            guard words.count > 1, let type = lanefile.step(id: words[1]) else {
                errors.writeLine("error: no step named '\(words.dropFirst().first ?? "")' in lanes or the Lanefile's packages; `lanes actions` lists them")
                return ErrorKind.usage.exitStatus
            }
            return await SingleStepRun.run(type, arguments: Array(words.dropFirst(2)), host: host)
        default:
            return await runLane(lanefile, arguments: words, host: host)
        }
    }

    /// Runs the lane `words` name (or `list`, `help`); the exit status.
    static func runLane(_ lanefile: Lanefile, arguments words: [String], host: any Host) async -> Int32 {
        let arguments: RunnerArguments
        do {
            arguments = try RunnerArguments(words, defaultProjectDirectory: host.currentDirectory)
        } catch {
            let shaped: any Error = FastlanePlatformWords.suggestion(for: RunnerArguments.positionalWords(words), lanes: lanefile.lanes.map(\.name)) ?? error
            TextOutput(sink: host.standardError, redactor: Redactor(), streams: nil)
                .writeLine("error: \(TerminalText.visible("\(shaped)", keepingLineBreaks: true))")
            return shaped.lanesKind.exitStatus
        }
        let streams = RedactedStandardStreams(formatPrintedLine: arguments.json ? JSONLinesReporter.printedLineEvent : nil)
        // Only a program that is the whole process redirects its streams, guards its memory and
        // handles its crashes: a test running the runner in its own process keeps all three.
        let ownsProcess = host.ownsProcess
        let redactor = Redactor(
            onFirstSecret: { redactor in
                guard ownsProcess else { return }
                let note = CrashGuard.protectSecretsInMemory()
                streams.install(redactor: redactor)
                if let note { TextOutput(sink: host.standardError, redactor: redactor, streams: streams).writeLine(note) }
            },
            onShortSecret: { name in
                TextOutput(sink: host.standardError, redactor: Redactor(), streams: streams).writeLine(
                    "warning: secret \(name) is shorter than \(Redactor.shortSecretLength) characters; every occurrence of it in the output is masked, ordinary text included")
            })
        // In --json mode every line a Lanefile prints must become an event, secrets or not.
        if arguments.json, ownsProcess { streams.install(redactor: redactor) }
        let errors = TextOutput(sink: host.standardError, redactor: redactor, streams: streams)
        do {
            let status = try await run(lanefile, arguments: arguments, redactor: redactor, streams: streams, host: host)
            streams.restore()
            return status
        } catch {
            streams.restore()
            // Redacted before its control characters are made visible, so a secret is matched as it was.
            errors.writeLine("error: \(TerminalText.visible(redactor.redact("\(error)"), keepingLineBreaks: true))")
            return error.lanesKind.exitStatus
        }
    }

    static func run(_ lanefile: Lanefile, arguments: RunnerArguments, redactor: Redactor,
                    streams: RedactedStandardStreams, host: any Host) async throws -> Int32 {
        let process = host.environment
        // Secret-named variables are masked before anything can print them, dotenv errors included.
        Environment(variables: process, redactor: redactor).registerSecretNamedVariables()
        let output = TextOutput(sink: host.standardOutput, redactor: redactor, streams: streams)
        let errors = TextOutput(sink: host.standardError, redactor: redactor, streams: streams)
        switch arguments.command {
        case .list(.names):
            // What a shell completion asks for at each TAB: names only, no schedule parsing.
            output.write(LaneListing.names(of: lanefile))
            return 0
        case .list(let format):
            output.write(try LaneListing(lanefile: lanefile).render(format))
            return 0
        case .help(let name):
            guard let lane = lanefile.lane(named: name) else {
                // `lanes help build_app`: a step's page, when no lane has that name.
                if let step = StepCatalog.step(id: name) {
                    output.write(step.info.helpPage)
                    return 0
                }
                throw LanesError(.usage, "no lane named '\(name)' in the Lanefile",
                                 hint: NameSuggestions(known: lanefile.lanes.map(\.name)).hint(for: name, noun: "lane", listCommand: "lanes list"))
            }
            output.write(LaneHelp(lane: lane, schedules: try LaneListing(lanefile: lanefile).schedules[name] ?? []).rendered)
            return 0
        case .listSigning(let json):
            guard let signing = lanefile.codeSigning else {
                output.write(json ? "null\n" : "The Lanefile declares no CodeSigning.\n")
                return 0
            }
            output.write(json ? signing.json.serialized + "\n" : signing.table)
            return 0
        case .lane(let name, let options):
            let diagnostics = Diagnostics(environment: process, output: errors)
            let variables = try DotEnv(directory: arguments.projectDirectory, diagnostics: diagnostics)
                .load(environmentNames: arguments.environmentNames, over: process)
            let environment = Environment(variables: variables, redactor: redactor)
            environment.registerSecretNamedVariables()
            let processes = LaneProcesses(host: host)
            let runContext = RunRecording.context(arguments: arguments, environment: process)
            var reporters: [any Reporter] = [
                arguments.json
                    ? JSONLinesReporter(output: output, runContext: runContext)
                    : TerminalReporter(output: output, errors: errors,
                                       capabilities: TerminalCapabilities(isTerminal: output.isTerminal, environment: variables),
                                       gitHub: gitHubCommands(lanefile, arguments: arguments, environment: variables)),
            ]
            let junit = arguments.junitPath.map { JUnitReporter(path: $0, redactor: redactor) }
            if let junit { reporters.append(junit) }
            let laneValues = LaneValues()
            let context = StepContext(
                environment: environment, projectDirectory: arguments.projectDirectory,
                stateDirectory: arguments.projectDirectory + "/.lanes", log: StepLog(redactor: redactor) { _ in },
                cleanups: CleanupStack(),
                processes: SubprocessRunner(baseEnvironment: variables, diagnostics: diagnostics, redactor: redactor,
                                            lane: processes),
                values: laneValues, host: host)
            let (lane, values) = try LaneExecutor(lanefile: lanefile, context: context, reporter: ReporterGroup(reporters),
                                                  diagnostics: diagnostics).prepare(lane: name, options: options)
            try StepCallPreflight.check(lane, lanefile: lanefile, path: arguments.lanefilePath ?? arguments.projectDirectory + "/Lanefile.swift",
                                        environment: environment)
            try junit?.prepare()
            // Opened once the lane and its options validated: a mistyped lane name records no run.
            if let recording = RunRecording.start(arguments: arguments, environment: process, diagnostics: diagnostics, host: host) {
                reporters.append(JSONLinesReporter(output: TextOutput(descriptor: recording.descriptor, redactor: redactor, streams: streams),
                                                   runContext: runContext, batchesOutput: true))
            }
            let executor = LaneExecutor(lanefile: lanefile, context: context, reporter: ReporterGroup(reporters),
                                        diagnostics: diagnostics)
            // What a crashed or killed run left behind goes now, before this run makes its own.
            for keychain in await SigningConfiguration.removeLeftoverKeychains(stateDirectory: context.stateDirectory, environment: variables,
                                                                               processes: context.processes) {
                diagnostics.warning("removed keychain \(keychain), left behind by a lane that crashed or was killed")
            }
            for folder in ScratchFolder.sweep(in: StepContext.keyFolders(stateDirectory: context.stateDirectory)) {
                diagnostics.warning("removed \(folder) (an App Store Connect key for xcodebuild), left behind by a lane that crashed or was killed")
            }
            let ended = await processes.takeOver(leasesIn: context.stateDirectory + "/processes")
            if ended > 0 {
                diagnostics.warning("ended \(ended) process(es) left running by a lane that crashed or was killed")
            }
            if host.ownsProcess { CrashGuard.arm(lane: lane.name, streams: streams) }
            let ending = await InterruptibleTask.run(host: host, cleanups: context.cleanups) {
                await executor.execute(lane, values: values)
            }
            guard case .finished(let kind) = ending else {
                // A second signal: the cleanups ran; everything the lane started is killed now, and
                // the lane's own task is left behind (it ignored its cancellation).
                processes.killNow()
                errors.writeLine("error: interrupted twice; cleanups ran, the lane's processes were killed")
                return InterruptibleTask.interruptedStatus
            }
            // Nothing a step started outlives the lane: endings under way get their SIGKILL, and
            // leftovers (background processes, setsid sessions) are ended too.
            await processes.finish()
            if let failure = junit?.failure { throw LanesError(.environment, failure) }
            return kind?.exitStatus ?? 0
        }
    }

    /// Workflow commands when running on GitHub Actions, with the Lanefile relative to the workspace.
    static func gitHubCommands(_ lanefile: Lanefile, arguments: RunnerArguments,
                               environment: [String: String]) -> GitHubActionsCommands? {
        guard CISystem.detect(in: environment) == .githubActions else { return nil }
        var file = arguments.lanefilePath ?? arguments.projectDirectory + "/Lanefile.swift"
        if let workspace = environment["GITHUB_WORKSPACE"], !workspace.isEmpty, file.hasPrefix(workspace + "/") {
            file = String(file.dropFirst(workspace.count + 1))
        }
        return GitHubActionsCommands(file: file, laneLines: Dictionary(lanefile.lanes.map { ($0.name, $0.sourceLine) }) { first, _ in first })
    }
}

/// The runner's words for `lanes-tool`'s requests about package steps (never a lane's name: lanes
/// do not start with underscores).
public enum PackageStepRequest {
    public static let list = "__steps"
    public static let run = "__run-step"
}

/// Runs the lane in a task that Ctrl-C (SIGINT), a CI abort (SIGTERM) or a closed terminal or ssh
/// session (SIGHUP) cancels; cleanups then run as the lane unwinds. A second signal runs the
/// cleanups at once and ends the run without waiting for the lane. Signals come from the host: the
/// runner takes them over before the lane starts, so a Ctrl-C as the first step starts is neither
/// lost nor fatal.
enum InterruptibleTask {
    static let interruptedStatus: Int32 = 130

    enum Ending: Sendable, Equatable {
        /// The lane ended (`.interrupted` when a signal stopped it).
        case finished(ErrorKind?)
        /// A second signal came before it did; the cleanups ran.
        case forced
    }

    /// The signals that stop a lane. SIGHUP is one of them unless lanes was started with it
    /// ignored (`nohup lanes deploy`): whoever did that asked for the lane to outlive the terminal.
    static func stopSignals(hangupIgnored: Bool) -> [Int32] {
        hangupIgnored ? [SIGINT, SIGTERM] : [SIGINT, SIGTERM, SIGHUP]
    }

    static func run(host: any Host, cleanups: CleanupStack, _ body: @escaping @Sendable () async -> ErrorKind?) async -> Ending {
        // Only a program that is the whole process inherited a disposition (a test's host has none).
        let signals = host.signals(stopSignals(hangupIgnored: host.ownsProcess && SignalHandler.isIgnored(SIGHUP)))
        let first = FirstOf<Ending>()
        let interrupted = SignalCount()
        let lane = Task {
            let kind = await body()
            first.finish(.finished(interrupted.value > 0 ? .interrupted : kind))
        }
        let watcher = Task {
            for await _ in signals {
                if interrupted.increment() == 1 {
                    lane.cancel()
                } else {
                    _ = await Task { await cleanups.runAll() }.value
                    first.finish(.forced)
                    return
                }
            }
        }
        let ending = await first.wait()
        watcher.cancel()
        return ending
    }
}

/// How many interrupting signals arrived.
final class SignalCount: Sendable {
    private let count = Mutex(0)
    func increment() -> Int { count.withLock { $0 += 1; return $0 } }
    var value: Int { count.withLock { $0 } }
}

/// The first of several outcomes; later ones are ignored.
final class FirstOf<Value: Sendable>: Sendable {
    private let state = Mutex<(value: Value?, waiter: CheckedContinuation<Value, Never>?)>((nil, nil))

    func finish(_ value: Value) {
        let waiter: CheckedContinuation<Value, Never>? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    func wait() async -> Value {
        await withCheckedContinuation { continuation in
            let ready: Value? = state.withLock { state in
                if let value = state.value { return value }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
