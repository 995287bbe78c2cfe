import ArgumentParser
import Foundation
import Lanes
import LanesBuild
import LanesPlatform

/// `lanes xcode log [FILE|-] [--json]`: the build-log summariser of `build_app` and `run_tests` on a
/// saved or piped xcodebuild / SwiftPM log. Exits 1 when the log holds errors.
struct XcodeLogCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "log",
        abstract: "Summarise an xcodebuild or SwiftPM log: phases, warning and error counts, every error location first.",
        discussion: """
            Reads FILE, or standard input with - (the default): xcodebuild ... 2>&1 | lanes xcode log
            Errors are printed as they are found; the summary follows. Exit status 1 when the log has errors.
            """)

    @Argument(help: "A saved log, or - for standard input.") var file: String = "-"
    @Flag(help: "Print the summary and every issue (kind, file, line, column, message, target) as JSON.") var json = false

    func run() throws {
        let descriptor: Int32
        if file == "-" {
            descriptor = 0
        } else {
            descriptor = open(file, O_RDONLY)
            guard descriptor >= 0 else {
                throw LanesError(.configuration, "cannot read \(file): \(String(cString: strerror(errno)))")
            }
        }
        defer { if descriptor != 0 { close(descriptor) } }

        var summarizer = BuildLogSummarizer()
        let live = !json
        let onEvent: (BuildLogEvent) -> Void = { event in
            guard live, case .issue(let issue) = event, issue.severity == .error else { return }
            print(TerminalText.visible(issue.rendered))
        }
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        while true {
            let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
            if count < 0 {
                if errno == EINTR { continue }
                throw LanesError(.environment, "cannot read \(file == "-" ? "standard input" : file): \(String(cString: strerror(errno)))")
            }
            if count == 0 { break }
            buffer.withUnsafeBytes { summarizer.consume(bytes: UnsafeRawBufferPointer(rebasing: $0[..<count]), report: onEvent) }
        }
        let summary = summarizer.finish(report: onEvent)
        if json {
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(LogReport(summary)), as: UTF8.self))
        } else {
            // The summary quotes the log (its results): every line shown, not obeyed.
            print(Self.summaryLines(summary).map { TerminalText.visible($0) }.joined(separator: "\n"))
        }
        if summary.hasErrors { throw ExitCode(1) }
    }

    static func summaryLines(_ summary: BuildLogSummary) -> [String] {
        var lines: [String] = []
        if summary.errorCount > summary.errors.count {
            lines.append("(\(summary.errorCount - summary.errors.count) more errors not listed)")
        }
        let phases = summary.phases.map(\.rawValue).joined(separator: ", ")
        lines.append("phases: \(phases.isEmpty ? "none recognised" : phases)")
        if !summary.outcomes.isEmpty { lines.append("result: \(summary.outcomes.joined(separator: "; "))") }
        lines.append("\(summary.errorCount) error\(summary.errorCount == 1 ? "" : "s"), \(summary.warningCount) warning\(summary.warningCount == 1 ? "" : "s")")
        return lines
    }
}

/// `--json`: counts, phases, results and issues; absent fields are null, never left out.
private struct LogReport: Encodable {
    let errors: Int
    let warnings: Int
    let phases: [String]
    let outcomes: [String]
    let issues: [Issue]

    init(_ summary: BuildLogSummary) {
        errors = summary.errorCount
        warnings = summary.warningCount
        phases = summary.phases.map(\.rawValue)
        outcomes = summary.outcomes
        issues = (summary.errors + summary.warnings).map(Issue.init)
    }

    struct Issue: Encodable {
        let issue: BuildIssue
        enum CodingKeys: String, CodingKey { case severity, kind, file, line, column, message, target, test }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(issue.severity.rawValue, forKey: .severity)
            try container.encode(issue.kind.rawValue, forKey: .kind)
            try container.encode(issue.file, forKey: .file)
            try container.encode(issue.line, forKey: .line)
            try container.encode(issue.column, forKey: .column)
            try container.encode(issue.message, forKey: .message)
            try container.encode(issue.target, forKey: .target)
            try container.encode(issue.test, forKey: .test)
        }
    }
}
