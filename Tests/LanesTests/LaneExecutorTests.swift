import Synchronization
import Testing
import Lanes
@testable import LanesRuntime

/// Runs lanes in-process with a recording reporter and the real process runner.
@Suite(.timeLimit(.minutes(3))) struct LaneExecutorTests {
    final class Recorder: Reporter {
        let events = Mutex<[String]>([])
        func report(_ event: RunEvent) {
            let text: String = switch event {
            case .laneStarted(let lane, _): "lane \(lane)"
            case .stepStarted(let start): "start \(start.id) \(start.banner)"
            case .output(_, let line): "out \(line)"
            case .message(let text): "msg \(text)"
            case .result(let result): "result \(result.lines.joined(separator: " "))"
            case .stepFinished(let record): "finish \(record.id) \(record.succeeded)"
            case .laneFinished(let summary): "done \(summary.failure ?? "ok")"
            }
            events.withLock { $0.append(text) }
        }
        var lines: [String] { events.withLock { $0 } }
    }

    func executor(_ lanefile: Lanefile, variables: [String: String] = [:]) -> (LaneExecutor, Recorder, CleanupStack) {
        let redactor = Redactor()
        let recorder = Recorder()
        let cleanups = CleanupStack()
        let context = StepContext(environment: Environment(variables: variables, redactor: redactor), projectDirectory: "/tmp",
                                  stateDirectory: "/tmp/.lanes", log: StepLog(redactor: redactor) { _ in }, cleanups: cleanups,
                                  processes: SubprocessRunner(baseEnvironment: variables.merging(["PATH": "/usr/bin:/bin"]) { $1 }))
        return (LaneExecutor(lanefile: lanefile, context: context, reporter: recorder), recorder, cleanups)
    }

    @Test func cleanupsRunNewestFirstEvenWhenTheLaneFails() async throws {
        let order = Mutex<[String]>([])
        let lanefile = Lanefile {
            Lane("fail", "Registers cleanups, then fails") {
                try await sh("sh", "-c", "exit 4")
            }
        }
        let (executor, recorder, cleanups) = executor(lanefile)
        cleanups.push("first") { order.withLock { $0.append("first") } }
        cleanups.push("broken") { throw LanesError(.environment, "cannot delete") }
        cleanups.push("second") { order.withLock { $0.append("second") } }
        let (lane, values) = try executor.prepare(lane: "fail", options: [:])
        let kind = await executor.execute(lane, values: values)
        #expect(kind == .laneFailure)
        #expect(order.withLock { $0 } == ["second", "first"])
        #expect(recorder.lines.contains("msg cleanup failed: broken: cannot delete"))
        #expect(cleanups.isEmpty)
    }

    @Test func stepOutputIsRedactedBeforeReporters() async throws {
        let lanefile = Lanefile {
            Lane("leak", "Prints its secret") {
                _ = try secret("TOKEN")
                try await sh("sh", "-c", "echo token=$TOKEN")
            }
        }
        let (executor, recorder, _) = executor(lanefile, variables: ["TOKEN": "tok-42-secret"])
        let (lane, values) = try executor.prepare(lane: "leak", options: [:])
        _ = await executor.execute(lane, values: values)
        // The child sees the secret in its environment and prints it; the reporter sees only the mask.
        #expect(recorder.lines.contains("out token=********"), "\(recorder.lines)")
        #expect(!recorder.lines.joined().contains("tok-42-secret"))
    }

    @Test func shsResultHoldsItsOutputRedactedAsPrinted() async throws {
        let result = Mutex<[String]>([])
        let lanefile = Lanefile {
            Lane("leak", "Returns its secret") {
                _ = try secret("TOKEN")
                let output = try await sh("sh", "-c", "echo token=$TOKEN; printf 'tab\\there\\r\\n'; printf %s \"$TOKEN\" | base64")
                result.withLock { $0 = output.output }
            }
        }
        let (executor, recorder, _) = executor(lanefile, variables: ["TOKEN": "tok-42-secret"])
        let (lane, values) = try executor.prepare(lane: "leak", options: [:])
        _ = await executor.execute(lane, values: values)
        let output = result.withLock { $0 }
        #expect(output.first == "token=********", "\(output)")
        #expect(output.dropFirst().first == "tab\there", "a tab stays a tab in the result, and the \\r goes")
        #expect(output.count == 3 && !output.joined().contains("tok-42-secret") && !output.joined().contains("dG9rLTQyLXNlY3JldA"), "\(output)")
        #expect(!recorder.lines.joined().contains("tok-42-secret"))
    }

    @Test func stepsOutsideALaneAreALanefileMistake() async {
        await #expect {
            try await sh("true")
        } throws: { error in
            String(describing: error).contains("outside a running lane") && error.lanesKind == .configuration
        }
        #expect(throws: LanesError.self) { try echo("x") }
    }

    @Test func hooksReceiveTheLaneAndPrintingItShowsOnlyItsName() async throws {
        let lanefile = Lanefile {
            Lane("ship", "Ships") {}
            BeforeEach { lane in try echo("before \(lane) (\(lane.summary))") }
        }
        let (executor, recorder, _) = executor(lanefile, variables: ["AWS_SECRET_ACCESS_KEY": "aws-very-secret"])
        let (lane, values) = try executor.prepare(lane: "ship", options: [:])
        _ = await executor.execute(lane, values: values)
        #expect(recorder.lines.contains("msg before ship (Ships)"))
    }

    @Test func duplicateLanesAndLanesNamedLikeSubcommandsAreRefusedWhenTheLanefileLoads() {
        let lanefile = Lanefile {
            Lane("build", "First") {}
            Lane("build", "Second") {}
            Lane("list", "Shadowed by lanes list") {}
        }
        #expect {
            try lanefile.validate()
        } throws: { error in
            let text = "\(error)"
            return error.lanesKind == .configuration && text.contains("lane 'build' is defined 2 times: \"First\" and \"Second\"")
                && text.contains("lane 'list' has the name of the subcommand `lanes list`")
        }
    }

    /// Issue 21: a lane name reaches shells, YAML, Groovy and unit files in the exports; one that
    /// is not an identifier (an option, a command substitution, a newline) is refused at load.
    @Test(arguments: ["--json", "-x", "", "a\nb", "$(touch pwned)", "build ios", "build-ios", "1st"])
    func aLaneNameThatIsNotAnIdentifierIsRefused(name: String) {
        let lanefile = Lanefile {
            Lane(name, "Hostile") {}
        }
        #expect {
            try lanefile.validate()
        } throws: { error in
            error.lanesKind == .configuration && "\(error)".contains("lane \(String(reflecting: name)) is not a valid lane name")
        }
    }

    @Test func secretAndVariableNamesMustBeEnvironmentVariableNames() {
        let lanefile = Lanefile {
            Lane("ship", "Ships", environment: ["OK_NAME", "BAD\nNAME"], secrets: ["TOKEN }} ${{ github.token"]) {}
            Lane("_private2", "Fine") {}
        }
        #expect {
            try lanefile.validate()
        } throws: { error in
            let text = "\(error)"
            return text.contains(#"declares the environment variable "BAD\nNAME""#) && text.contains("declares the secret")
                && !text.contains("OK_NAME") && !text.contains("_private2")
        }
    }
}
