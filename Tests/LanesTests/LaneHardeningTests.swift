import Synchronization
import Testing
import Lanes
@testable import LanesRuntime
import LanesPlatform

/// Findings 8, 9, 16 and 20 of issue 10, run in-process through `LaneExecutor`.
@Suite struct LaneHardeningTests {
    static let retries = LaneOption<Int>("retries", "How often", env: "DEPLOY_RETRIES")

    func context(_ variables: [String: String], redactor: Redactor = Redactor()) -> StepContext {
        StepContext(environment: Environment(variables: variables, redactor: redactor), projectDirectory: "/tmp",
                    stateDirectory: "/tmp/.lanes", log: StepLog(redactor: redactor) { _ in }, cleanups: CleanupStack(),
                    processes: SubprocessRunner(baseEnvironment: ["PATH": "/usr/bin:/bin"]))
    }

    @Test func anOptionErrorCannotShowADeclaredSecret() throws {
        // The option reads a variable the lane also declares as a secret; its value is no Int.
        let lanefile = Lanefile {
            Lane("deploy", "Deploys", options: [Self.retries], secrets: ["DEPLOY_RETRIES"]) {}
        }
        let context = context(["DEPLOY_RETRIES": "not-a-number-secret"])
        let executor = LaneExecutor(lanefile: lanefile, context: context, reporter: ReporterGroup([]))
        #expect {
            _ = try executor.prepare(lane: "deploy", options: [:])
        } throws: { error in
            let shown = context.environment.redactor.redact(String(describing: error))
            return shown.contains("retries") && !shown.contains("not-a-number-secret")
        }
    }

    @Test func aLaneCallingItselfFailsWithTheCallChain() async throws {
        let lanefile = Lanefile {
            Lane("a", "Calls b") { try await callLane("b") }
            Lane("b", "Calls a") { try await callLane("a") }
        }
        let recorder = LaneExecutorTests.Recorder()
        let executor = LaneExecutor(lanefile: lanefile, context: context([:]), reporter: recorder)
        let (lane, values) = try executor.prepare(lane: "a", options: [:])
        let kind = await executor.execute(lane, values: values)
        #expect(kind == .configuration)
        #expect(recorder.lines.last == "done lane a calls itself: a -> b -> a\n  hint: a lane may call other lanes, but not one that is already running")
    }

    @Test func junitRecordsALaneThatFailsAfterItsStepsSucceeded() async throws {
        let directory = try TemporaryFolder()
        let path = directory.path + "/reports/nested/junit.xml"
        let redactor = Redactor()
        let junit = JUnitReporter(path: path, redactor: redactor)
        try junit.prepare()
        let lanefile = Lanefile {
            Lane("ship", "Steps succeed, then the lane's own code throws") {
                try await sh("true")
                throw LanesError(.laneFailure, "upload refused")
            }
        }
        let executor = LaneExecutor(lanefile: lanefile, context: context([:], redactor: redactor), reporter: junit)
        let (lane, values) = try executor.prepare(lane: "ship", options: [:])
        _ = await executor.execute(lane, values: values)
        let xml = try String(contentsOfProcFile: path)
        #expect(xml.contains(#"failures="1""#))
        #expect(xml.contains(#"<failure message="upload refused" type="failure">"#))
    }

    @Test func junitOutputWithALateMetacharacterSecretStaysWellFormed() async throws {
        let directory = try TemporaryFolder()
        let path = directory.path + "/junit.xml"
        let redactor = Redactor()
        let junit = JUnitReporter(path: path, redactor: redactor)
        let lanefile = Lanefile {
            Lane("late", "Prints, then registers the printed value as a secret") {
                try await sh("printf", "%s\\n", "x<&>\"y")
                _ = try secret("LATE_VALUE")
                try await sh("printf", "%s\\n", "1")
            }
        }
        let context = context(["LATE_VALUE": "x<&>\"y", "SHORT": "1"], redactor: redactor)
        redactor.register("1", name: "SHORT")
        let executor = LaneExecutor(lanefile: lanefile, context: context, reporter: junit)
        let (lane, values) = try executor.prepare(lane: "late", options: [:])
        _ = await executor.execute(lane, values: values)
        let xml = try String(contentsOfProcFile: path)
        #expect(xml.hasPrefix(#"<?xml version="1.0" encoding="UTF-8"?>"# + "\n<testsuites "))
        #expect(!xml.contains("x&lt;&amp;&gt;"), "the late secret stayed in the report")
        #expect(xml.contains("<system-out>********</system-out>"))
    }

    @Test func junitPathThatCannotBeWrittenIsRefusedBeforeTheFirstStep() throws {
        let directory = try TemporaryFolder()
        let locked = directory.path + "/locked"
        mkdir(locked, 0o755)
        FileManagerless.touch(locked + "/junit.xml", mode: 0o444)
        let junit = JUnitReporter(path: locked + "/junit.xml", redactor: Redactor())
        #expect(throws: LanesError.self) { try junit.prepare() }
    }
}

/// A temporary folder removed when the value goes away.
final class TemporaryFolder {
    let path: String
    init() throws {
        var template = Array("/tmp/lanes-test-XXXXXX".utf8CString)
        guard let made = template.withUnsafeMutableBufferPointer({ mkdtemp($0.baseAddress!) }) else {
            throw LanesError(.environment, "mkdtemp failed")
        }
        path = String(cString: made)
    }
    deinit { FilePath.removeTree(path) }
}

enum FileManagerless {
    static func touch(_ path: String, mode: mode_t) {
        let descriptor = open(path, O_CREAT | O_WRONLY, 0o644)
        close(descriptor)
        chmod(path, mode)
    }
}
