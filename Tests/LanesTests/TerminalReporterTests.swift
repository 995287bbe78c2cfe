import Foundation
import Testing
import Lanes
@testable import LanesRuntime
import LanesWire

/// The human output, pinned by golden files in `Golden/` (a mismatch fails; nothing rewrites them):
/// plain, coloured, on GitHub Actions; and the live elapsed-time line of a terminal.
@Suite struct TerminalReporterTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")

    /// A file that stands in for a terminal or a pipe; what was written is read back.
    final class Capture {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-capture-\(UUID().uuidString)")
        let descriptor: Int32
        init() { descriptor = open(url.path, O_CREAT | O_WRONLY | O_TRUNC, 0o600) }
        deinit {
            close(descriptor)
            try? FileManager.default.removeItem(at: url)
        }
        func output(_ redactor: Redactor = Redactor()) -> TextOutput { TextOutput(descriptor: descriptor, redactor: redactor) }
        var text: String { (try? String(contentsOf: url, encoding: .utf8)) ?? "" }
    }

    static let startedAt = Timestamp(secondsSinceEpoch: 1_795_000_000)

    /// A lane of three steps, the last one failing when `fails`.
    static func events(fails: Bool) -> [RunEvent] {
        let long = "xcodebuild -workspace Brewer.xcworkspace -scheme Brewer -configuration Staging archive"
        var events: [RunEvent] = [
            .laneStarted(lane: "beta", at: startedAt),
            .stepStarted(StepStart(index: 1, id: "sh", banner: "git fetch --tags", options: [], at: startedAt)),
            .output(step: 1, line: "From github.com:sth/brewer"),
            .stepFinished(StepRecord(index: 1, id: "sh", banner: "git fetch --tags", duration: .milliseconds(1234), outcome: .succeeded)),
            .stepStarted(StepStart(index: 2, id: "sh", banner: long, options: [], at: startedAt)),
            .output(step: 2, line: "** ARCHIVE SUCCEEDED **"),
            .stepFinished(StepRecord(index: 2, id: "sh", banner: long, duration: .seconds(754) + .milliseconds(5), outcome: .succeeded)),
            .stepStarted(StepStart(index: 3, id: "import_certificate", banner: "Import dist.p12 into keychain ci", options: [], at: startedAt)),
        ]
        let message = "cannot read dist.p12: wrong password\nlast lines:\n  | 100% done"
        let third = StepRecord(index: 3, id: "import_certificate", banner: "Import dist.p12 into keychain ci", duration: .milliseconds(7),
                               outcome: fails ? .failed(message: message, outputTail: []) : .succeeded)
        events.append(.stepFinished(third))
        let steps = [
            StepRecord(index: 1, id: "sh", banner: "git fetch --tags", duration: .milliseconds(1234), outcome: .succeeded),
            StepRecord(index: 2, id: "sh", banner: long, duration: .seconds(754) + .milliseconds(5), outcome: .succeeded),
            third,
        ]
        events.append(.laneFinished(LaneSummary(lane: "beta", steps: steps, duration: .seconds(755) + .milliseconds(246),
                                                failure: fails ? message : nil, kind: fails ? .laneFailure : nil)))
        return events
    }

    func render(_ events: [RunEvent], capabilities: TerminalCapabilities, gitHub: GitHubActionsCommands? = nil) -> String {
        let output = Capture()
        let errors = Capture()
        let reporter = TerminalReporter(output: output.output(), errors: errors.output(), capabilities: capabilities, gitHub: gitHub)
        for event in events { reporter.report(event) }
        let clock = Self.startedAt.localClockTime
        return ("--- standard output\n" + output.text + "--- standard error\n" + errors.text).replacing(clock, with: "HH:MM:SS")
    }

    func expectGolden(_ actual: String, _ file: String) throws {
        let expected = try String(contentsOf: Self.golden.appendingPathComponent(file), encoding: .utf8)
        #expect(actual == expected, "differs from Golden/\(file):\n\(actual)")
    }

    @Test func plainOutputOnAPipe() throws {
        try expectGolden(render(Self.events(fails: false), capabilities: TerminalCapabilities(colors: false, liveStatus: false)),
                         "terminal-success.txt")
    }

    @Test func colouredFailure() throws {
        try expectGolden(render(Self.events(fails: true), capabilities: TerminalCapabilities(colors: true, liveStatus: false)),
                         "terminal-failure-color.txt")
    }

    @Test func gitHubActionsGroupsAndAnnotations() throws {
        let gitHub = GitHubActionsCommands(file: "ios/Lanefile.swift", laneLines: ["beta": 42])
        try expectGolden(render(Self.events(fails: true), capabilities: TerminalCapabilities(colors: false, liveStatus: false), gitHub: gitHub),
                         "terminal-github-actions.txt")
    }

    @Test func summaryShowsTheRedactedShellCommand() async throws {
        let lanefile = Lanefile {
            Lane("leak", "Puts its secret in an argument") {
                let token = try secret("TOKEN")
                try await sh("echo", "upload", "--token", token.value)
            }
        }
        let redactor = Redactor()
        let output = Capture()
        let errors = Capture()
        let reporter = TerminalReporter(output: output.output(redactor), errors: errors.output(redactor),
                                        capabilities: TerminalCapabilities(colors: false, liveStatus: false), gitHub: nil)
        let context = StepContext(environment: Environment(variables: ["TOKEN": "tok-42-secret"], redactor: redactor),
                                  projectDirectory: "/tmp", stateDirectory: "/tmp/.lanes", log: StepLog(redactor: redactor) { _ in },
                                  cleanups: CleanupStack(), processes: SubprocessRunner(baseEnvironment: ["PATH": "/usr/bin:/bin"]))
        let executor = LaneExecutor(lanefile: lanefile, context: context, reporter: reporter)
        let (lane, values) = try executor.prepare(lane: "leak", options: [:])
        _ = await executor.execute(lane, values: values)
        #expect(output.text.contains("| 1 | sh   | echo upload --token ******** |"))
        #expect(!(output.text + errors.text).contains("tok-42-secret"))
    }

    @Test func longBannersAreCutToOneLineOfFixedWidth() {
        #expect(TerminalReporter.truncated("short") == "short")
        let cut = TerminalReporter.truncated(String(repeating: "a", count: 60))
        #expect(cut.count == TerminalReporter.summaryTextWidth)
        #expect(cut.hasSuffix("…"))
        #expect(TerminalReporter.truncated("two\nlines") == "two lines")
    }

    @Test func elapsedLineAppearsAfterTheThresholdAndIsErasedBeforeOutput() {
        let capture = Capture()
        let indicator = ElapsedIndicator(output: capture.output(), threshold: .seconds(5))
        let start = ContinuousClock.now
        indicator.stepStarted("2. sh", at: start)
        indicator.tick(at: start + .seconds(4))
        #expect(capture.text == "")
        indicator.tick(at: start + .seconds(5))
        #expect(capture.text == "\r\u{1B}[K    2. sh: running for 0:05")
        indicator.write("a line\n")
        indicator.tick(at: start + .seconds(83))
        indicator.stepEnded()
        indicator.tick(at: start + .seconds(90))
        #expect(capture.text == "\r\u{1B}[K    2. sh: running for 0:05" + "\r\u{1B}[K" + "a line\n"
                    + "\r\u{1B}[K    2. sh: running for 1:23" + "\r\u{1B}[K")
    }

    @Test func elapsedClockFormat() {
        #expect(ElapsedIndicator.clock(.seconds(7)) == "0:07")
        #expect(ElapsedIndicator.clock(.seconds(723)) == "12:03")
        #expect(ElapsedIndicator.clock(.seconds(3723)) == "1:02:03")
    }
}

@Suite struct TerminalCapabilitiesTests {
    @Test(arguments: [
        (true, [:], true, true),
        (false, [:], false, false),
        (true, ["NO_COLOR": "1"], false, true),
        (true, ["NO_COLOR": ""], true, true),
        (false, ["FORCE_COLOR": "1"], true, false),
        (false, ["CLICOLOR_FORCE": "1"], true, false),
        (false, ["FORCE_COLOR": "0"], false, false),
        (true, ["NO_COLOR": "1", "FORCE_COLOR": "1"], false, true),
        (true, ["TERM": "dumb"], false, false),
        (true, ["TERM": "dumb", "FORCE_COLOR": "1"], true, false),
    ] as [(Bool, [String: String], Bool, Bool)])
    func decides(isTerminal: Bool, environment: [String: String], colors: Bool, live: Bool) {
        let capabilities = TerminalCapabilities(isTerminal: isTerminal, environment: environment)
        #expect(capabilities == TerminalCapabilities(colors: colors, liveStatus: live))
    }
}

@Suite struct CISystemTests {
    @Test(arguments: [
        ([:], nil),
        (["JENKINS_URL": "https://ci.example.com/"], CISystem.jenkins),
        (["BUILD_NUMBER": "12", "JOB_NAME": "brewer"], .jenkins),
        (["BUILD_NUMBER": "12"], nil),
        (["GITHUB_ACTIONS": "true", "BUILD_NUMBER": "3", "JOB_NAME": "x"], .githubActions),
        (["GITLAB_CI": "true"], .gitlab),
        (["BUILDKITE": "true", "BUILD_NUMBER": "9", "JOB_NAME": "x"], .buildkite),
    ] as [([String: String], CISystem?)])
    func detects(environment: [String: String], expected: CISystem?) {
        #expect(CISystem.detect(in: environment) == expected)
    }

    @Test func gitHubCommandsEscapeWhatWouldEndThem() {
        let commands = GitHubActionsCommands(file: "a,b:c.swift", laneLines: ["x": 7])
        #expect(commands.error(lane: "x", message: "50% failed\nnext line")
            == "::error file=a%2Cb%3Ac.swift,line=7,title=lane x failed::50%25 failed%0Anext line")
        #expect(commands.error(lane: "unknown", message: "m") == "::error file=a%2Cb%3Ac.swift,title=lane unknown failed::m")
    }
}
