import LanesBuild
import Synchronization
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform

/// How every build step runs a tool (xcodebuild, swift, pod): the raw output goes, redacted, to a
/// log file under `.lanes/logs` whose path is printed first; the screen gets a live summary instead
/// of the raw stream: each phase as it starts and every error as it appears, location first. The
/// summariser never hides an error, and warnings are never counted as errors.
struct BuildToolRun {
    let context: StepContext
    /// Names the log file: `build_app-archive`.
    let label: String
    /// Also show every raw line (build_app's `silent: false`); the log file always has them.
    var showsEveryLine = false

    struct Result {
        let outcome: ProcessOutcome
        let summary: BuildLogSummary
        let tests: TestRunResult
        /// The lines the tool printed (redacted), for commands whose output is data (`--show-bin-path`).
        let lastLine: String?
        let logPath: String
    }

    func run(_ invocation: ToolInvocation, environment: [String: String] = [:]) async throws -> Result {
        let logs = context.resolve(".lanes/logs")
        try FilePath.makeDirectories(logs, mode: 0o700)
        let logPath = "\(logs)/\(Self.timestamp())-\(label).log"
        let descriptor = open(logPath, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw LanesError(.environment, "cannot write the build log \(logPath): \(String(cString: strerror(errno)))")
        }
        // A build log runs to hundreds of MB: its lines go out in batches, not a write(2) each.
        let logQueue = OutputQueue()
        defer {
            logQueue.flush()
            close(descriptor)
        }
        let command = invocation.arguments.joined(separator: " ")
        context.log.line("\(command.count > 72 ? command.prefix(71) + "…" : command[...]): full log in \(logPath)")

        let state = Mutex(State())
        let redactor = context.environment.redactor
        let log = context.log
        let showsEveryLine = self.showsEveryLine
        let request = ProcessRequest(invocation.arguments, environment: environment,
                                     workingDirectory: invocation.workingDirectory.map(context.resolve) ?? context.projectDirectory)
        let outcome = try await context.processes.run(request) { line in
            let shown = redactor.redact(line)
            logQueue.enqueue(to: .descriptor(descriptor)) { bytes in
                bytes.append(contentsOf: shown.utf8)
                bytes.append(UInt8(ascii: "\n"))
            }
            let news = state.withLock { state in state.consume(shown) }
            if showsEveryLine { log.line(shown) } else { for text in news { log.line(text) } }
        }
        let (summary, tests, lastLine) = state.withLock { state in state.finish() }
        if summary.warningCount > 0 || summary.errorCount > 0 {
            log.line("\(summary.errorCount) error\(summary.errorCount == 1 ? "" : "s"), \(summary.warningCount) warning\(summary.warningCount == 1 ? "" : "s")")
        }
        return Result(outcome: outcome, summary: summary, tests: tests, lastLine: lastLine, logPath: logPath)
    }

    /// The summariser and the test parser fed line by line; what a person should see right away.
    private struct State {
        var summarizer = BuildLogSummarizer()
        var tests = TestOutputParser()
        var lastLine: String?

        mutating func consume(_ line: String) -> [String] {
            var shown: [String] = []
            summarizer.consume(line: line) { event in
                switch event {
                case .phase(let phase): shown.append("▸ \(phase.rawValue)")
                case .issue(let issue) where issue.severity == .error: shown.append(issue.rendered)
                default: break
                }
            }
            tests.consume(line: line)
            if !line.isEmpty { lastLine = line }
            return shown
        }

        mutating func finish() -> (BuildLogSummary, TestRunResult, String?) {
            (summarizer.finish(), tests.finish(), lastLine)
        }
    }

    private static func timestamp() -> String {
        Date().formatted(.iso8601).replacing(":", with: "")
    }
}

/// A build tool that failed: its errors first, where its full log is, and how it ended.
struct BuildToolFailure: Error, ClassifiedError, CustomStringConvertible {
    let tool: String
    let summary: BuildLogSummary
    let outcome: ProcessOutcome
    let logPath: String

    var lanesKind: ErrorKind { .laneFailure }

    var description: String {
        let status = switch outcome.termination {
        case .exited(let code): "exited with status \(code)"
        case .signaled(let signal): "was killed by signal \(signal)"
        }
        var lines = ["\(tool) \(status) with \(summary.errorCount) error\(summary.errorCount == 1 ? "" : "s")"]
        lines += summary.errors.prefix(20).map { "  \($0.rendered)" }
        if summary.errorCount > 20 { lines.append("  ... and \(summary.errorCount - 20) more") }
        lines.append("full log: \(logPath)")
        return lines.joined(separator: "\n")
    }
}

