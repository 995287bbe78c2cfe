import Synchronization
import Testing
@testable import Lanes

/// Runs lanes in-process with a recording reporter and the real process runner.
@Suite struct LaneExecutorTests {
    final class Recorder: Reporter {
        let events = Mutex<[String]>([])
        func report(_ event: RunEvent) {
            let text: String = switch event {
            case .laneStarted(let lane, _): "lane \(lane)"
            case .stepStarted(let start): "start \(start.id) \(start.banner)"
            case .output(_, let line): "out \(line)"
            case .message(let text): "msg \(text)"
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
                                  processes: SubprocessRunner(baseEnvironment: ["PATH": "/usr/bin:/bin"]))
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
        #expect(!recorder.lines.joined().contains("tok-42-secret"))
    }

    @Test func stepsOutsideALaneFailClearly() async {
        await #expect {
            try await sh("true")
        } throws: { error in
            String(describing: error).contains("outside a running lane")
        }
    }
}
