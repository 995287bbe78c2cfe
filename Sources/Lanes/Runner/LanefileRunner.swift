internal import Dispatch
internal import LanesPlatform
import Synchronization
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The `main` of a compiled Lanefile: the `lanes` driver compiles `Lanefile.swift` together with a
/// tiny entry file that calls `LanefileRunner.main(lanes)`, and execs the result.
public enum LanefileRunner {
    public static func main(_ lanefile: Lanefile) async -> Never {
        await main(lanefile, arguments: Array(CommandLine.arguments.dropFirst()))
    }

    static func main(_ lanefile: Lanefile, arguments: [String]) async -> Never {
        let streams = RedactedStandardStreams()
        let redactor = Redactor(onFirstSecret: { streams.install(redactor: $0) })
        let errors = TextOutput.standardError(redactor)
        do {
            let status = try await run(lanefile, arguments: arguments, redactor: redactor, streams: streams)
            streams.restore()
            exit(status)
        } catch {
            streams.restore()
            errors.writeLine("error: \(error)")
            exit(error.lanesKind.exitStatus)
        }
    }

    static func run(_ lanefile: Lanefile, arguments: [String], redactor: Redactor,
                    streams: RedactedStandardStreams) async throws -> Int32 {
        try lanefile.validate()
        let process = ProcessEnvironment.current()
        let arguments = try RunnerArguments(arguments, defaultProjectDirectory: ProcessEnvironment.currentDirectory())
        let output = TextOutput.standardOutput(redactor)
        switch arguments.command {
        case .list(let json):
            output.write(try LaneListing(lanefile: lanefile).render(json: json))
            return 0
        case .listSigning(let json):
            guard let signing = lanefile.codeSigning else {
                output.write(json ? "null\n" : "The Lanefile declares no CodeSigning.\n")
                return 0
            }
            output.write(json ? signing.json.serialized + "\n" : signing.table)
            return 0
        case .lane(let name, let options):
            let diagnostics = Diagnostics(environment: process, output: .standardError(redactor))
            let variables = try DotEnv(directory: arguments.projectDirectory, diagnostics: diagnostics)
                .load(environmentName: arguments.environmentName, over: process)
            let environment = Environment(variables: variables, redactor: redactor)
            var reporters: [any Reporter] = [
                arguments.json
                    ? JSONLinesReporter(output: output)
                    : TerminalReporter(output: output, errors: .standardError(redactor), environment: variables),
            ]
            let junit = arguments.junitPath.map { JUnitReporter(path: $0, redactor: redactor) }
            if let junit { reporters.append(junit) }
            let context = StepContext(
                environment: environment, projectDirectory: arguments.projectDirectory,
                stateDirectory: arguments.projectDirectory + "/.lanes", log: StepLog(redactor: redactor) { _ in },
                cleanups: CleanupStack(), processes: SubprocessRunner(baseEnvironment: variables, diagnostics: diagnostics))
            let executor = LaneExecutor(lanefile: lanefile, context: context, reporter: ReporterGroup(reporters),
                                        diagnostics: diagnostics)
            let (lane, values) = try executor.prepare(lane: name, options: options)
            let kind = await InterruptibleTask.run(cleanups: context.cleanups, beforeForcedExit: streams.restore) {
                await executor.execute(lane, values: values)
            }
            if let failure = junit?.failure { throw LanesError(.environment, failure) }
            return kind?.exitStatus ?? 0
        }
    }
}

/// Runs the lane in a task that Ctrl-C (SIGINT) or a CI abort (SIGTERM) cancels; cleanups then run
/// as the lane unwinds. A second signal runs the cleanups at once and exits.
enum InterruptibleTask {
    static let interruptedStatus: Int32 = 130

    static func run(cleanups: CleanupStack, beforeForcedExit: @escaping @Sendable () -> Void,
                    _ body: @escaping @Sendable () async -> ErrorKind?) async -> ErrorKind? {
        let task = Task { await body() }
        let signals = SignalCount()
        let sources = [SIGINT, SIGTERM].map { number -> any DispatchSourceSignal in
            signal(number, SIG_IGN)
            let source = DispatchSource.makeSignalSource(signal: number, queue: .global())
            source.setEventHandler {
                if signals.increment() == 1 {
                    task.cancel()
                } else {
                    Task {
                        await cleanups.runAll()
                        beforeForcedExit()
                        exit(interruptedStatus)
                    }
                }
            }
            source.resume()
            return source
        }
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
