internal import Dispatch
internal import LanesPlatform
import LanesSigning
import Synchronization

/// The `main` of a compiled Lanefile: the `lanes` driver compiles `Lanefile.swift` together with a
/// tiny entry file that calls `LanefileRunner.main(lanes)`, and execs the result.
public enum LanefileRunner {
    public static func main(_ lanefile: Lanefile) async -> Never {
        // A user's Lanefile is checked as values first; `lanes run STEP` builds a one-lane Lanefile
        // named after the step, which may share a subcommand's name (`upload`) by design.
        do {
            try lanefile.validate()
        } catch {
            TextOutput.standardError(Redactor()).writeLine("error: \(TerminalText.visible("\(error)", keepingLineBreaks: true))")
            exit(error.lanesKind.exitStatus)
        }
        let words = Array(CommandLine.arguments.dropFirst())
        switch words.first {
        case PackageStepRequest.list:
            // `lanes actions`: what `lanes-tool` cannot know, the steps from packages.
            TextOutput.standardOutput(Redactor()).write(lanefile.packageStepsJSON().serialized + "\n")
            exit(0)
        case PackageStepRequest.run:
            // `lanes run ID`: a package's step, run like one of lanes' own.
            guard words.count > 1, let type = lanefile.step(id: words[1]) else {
                TextOutput.standardError(Redactor()).writeLine("error: no step named '\(words.dropFirst().first ?? "")' in lanes or the Lanefile's packages; `lanes actions` lists them")
                exit(ErrorKind.usage.exitStatus)
            }
            await SingleStepRun.main(type, arguments: Array(words.dropFirst(2)))
        default:
            await main(lanefile, arguments: words)
        }
    }

    static func main(_ lanefile: Lanefile, arguments words: [String]) async -> Never {
        InterruptibleTask.acceptInterrupts()
        let arguments: RunnerArguments
        do {
            arguments = try RunnerArguments(words, defaultProjectDirectory: ProcessEnvironment.currentDirectory())
        } catch {
            let shaped: any Error = FastlanePlatformWords.suggestion(for: RunnerArguments.positionalWords(words), lanes: lanefile.lanes.map(\.name)) ?? error
            TextOutput.standardError(Redactor()).writeLine("error: \(TerminalText.visible("\(shaped)", keepingLineBreaks: true))")
            exit(shaped.lanesKind.exitStatus)
        }
        let streams = RedactedStandardStreams(formatPrintedLine: arguments.json ? JSONLinesReporter.printedLineEvent : nil)
        let redactor = Redactor(
            onFirstSecret: { redactor in
                let note = CrashGuard.protectSecretsInMemory()
                streams.install(redactor: redactor)
                if let note { TextOutput(descriptor: 2, redactor: redactor, streams: streams).writeLine(note) }
            },
            onShortSecret: { name in
                TextOutput(descriptor: 2, redactor: Redactor(), streams: streams).writeLine(
                    "warning: secret \(name) is shorter than \(Redactor.shortSecretLength) characters; every occurrence of it in the output is masked, ordinary text included")
            })
        // In --json mode every line a Lanefile prints must become an event, secrets or not.
        if arguments.json { streams.install(redactor: redactor) }
        let errors = TextOutput(descriptor: 2, redactor: redactor, streams: streams)
        do {
            let status = try await run(lanefile, arguments: arguments, redactor: redactor, streams: streams)
            streams.restore()
            exit(status)
        } catch {
            streams.restore()
            // Redacted before its control characters are made visible, so a secret is matched as it was.
            errors.writeLine("error: \(TerminalText.visible(redactor.redact("\(error)"), keepingLineBreaks: true))")
            exit(error.lanesKind.exitStatus)
        }
    }

    static func run(_ lanefile: Lanefile, arguments: RunnerArguments, redactor: Redactor,
                    streams: RedactedStandardStreams) async throws -> Int32 {
        let process = ProcessEnvironment.current()
        // Secret-named variables are masked before anything can print them, dotenv errors included.
        Environment(variables: process, redactor: redactor).registerSecretNamedVariables()
        let output = TextOutput(descriptor: 1, redactor: redactor, streams: streams)
        let errors = TextOutput(descriptor: 2, redactor: redactor, streams: streams)
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
            let processes = LaneProcesses()
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
                values: laneValues)
            let (lane, values) = try LaneExecutor(lanefile: lanefile, context: context, reporter: ReporterGroup(reporters),
                                                  diagnostics: diagnostics).prepare(lane: name, options: options)
            try StepCallPreflight.check(lane, lanefile: lanefile, path: arguments.lanefilePath ?? arguments.projectDirectory + "/Lanefile.swift",
                                        environment: environment)
            try junit?.prepare()
            // Opened once the lane and its options validated: a mistyped lane name records no run.
            if let recording = RunRecording.start(arguments: arguments, environment: process, diagnostics: diagnostics) {
                reporters.append(JSONLinesReporter(output: TextOutput(descriptor: recording.descriptor, redactor: redactor, streams: streams),
                                                   runContext: runContext))
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
            let ended = processes.takeOver(leasesIn: context.stateDirectory + "/processes")
            if ended > 0 {
                diagnostics.warning("ended \(ended) process(es) left running by a lane that crashed or was killed")
            }
            CrashGuard.arm(lane: lane.name, streams: streams)
            let kind = await InterruptibleTask.run(cleanups: context.cleanups, beforeForcedExit: {
                processes.killNow()
                streams.restore()
            }) {
                await executor.execute(lane, values: values)
            }
            // Nothing a step started outlives the lane: endings under way get their SIGKILL, and
            // leftovers (background processes, setsid sessions) are ended too.
            processes.finish()
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
/// cleanups at once and exits.
enum InterruptibleTask {
    static let interruptedStatus: Int32 = 130

    /// The signals that stop a lane. SIGHUP is one of them unless lanes was started with it
    /// ignored (`nohup lanes deploy`): whoever did that asked for the lane to outlive the terminal.
    static func stopSignals(hangupIgnored: Bool) -> [Int32] {
        hangupIgnored ? [SIGINT, SIGTERM] : [SIGINT, SIGTERM, SIGHUP]
    }

    /// Unblocks the stop signals in this thread, which every later thread inherits. A parent may
    /// start lanes with them blocked (a thread pool's worker blocks signals, and a spawned child
    /// keeps its parent thread's mask): Ctrl-C and a CI abort would then never reach the lane.
    static func acceptInterrupts() {
        var interrupts = sigset_t()
        sigemptyset(&interrupts)
        for number in [SIGINT, SIGTERM, SIGHUP] { sigaddset(&interrupts, number) }
        pthread_sigmask(SIG_UNBLOCK, &interrupts, nil)
    }

    static func run(cleanups: CleanupStack, beforeForcedExit: @escaping @Sendable () -> Void,
                    _ body: @escaping @Sendable () async -> ErrorKind?) async -> ErrorKind? {
        let signals = SignalCount()
        let lane = Mutex<Task<ErrorKind?, Never>?>(nil)
        var sources: [any DispatchSourceSignal] = []
        for number in stopSignals(hangupIgnored: SignalHandler.isIgnored(SIGHUP)) {
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if signals.increment() == 1 {
                    lane.withLock { $0 }?.cancel()
                } else {
                    Task {
                        await cleanups.runAll()
                        beforeForcedExit()
                        exit(interruptedStatus)
                    }
                }
            }
            // Dispatch takes the signal over only once the source is registered, on its own thread:
            // until then a signal is ignored. The lane starts after that, or a Ctrl-C as its first
            // step starts (a busy machine) would be lost and the lane would run on.
            await withCheckedContinuation { (registered: CheckedContinuation<Void, Never>) in
                source.setRegistrationHandler { registered.resume() }
                source.resume()
            }
            sources.append(source)
        }
        let task = Task { await body() }
        lane.withLock { $0 = task }
        if signals.value > 0 { task.cancel() }  // arrived while the task was being made
        let kind = await task.value
        sources.forEach { $0.cancel() }
        return signals.value > 0 ? .interrupted : kind
    }
}

/// How many interrupting signals arrived.
final class SignalCount: Sendable {
    private let count = Mutex(0)
    func increment() -> Int { count.withLock { $0 += 1; return $0 } }
    var value: Int { count.withLock { $0 } }
}
