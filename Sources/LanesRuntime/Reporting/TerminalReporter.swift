/// Human output: a banner per step with a timestamp, the step's output, and a summary table.
/// On a terminal a step running longer than 5 s gets a live elapsed-time line; on GitHub Actions
/// each step's output folds into a group and a failure becomes an annotation.
public struct TerminalReporter: Reporter {
    let output: TextOutput
    let errors: TextOutput
    let capabilities: TerminalCapabilities
    let gitHub: GitHubActionsCommands?
    private let elapsed: ElapsedIndicator?
    private let ticker: ElapsedTicker?

    /// The widest command or banner shown in the summary table; longer ones end in `…`.
    static let summaryTextWidth = 48

    public init(output: TextOutput, errors: TextOutput, environment: [String: String]) {
        self.init(output: output, errors: errors,
                  capabilities: TerminalCapabilities(isTerminal: output.isTerminal, environment: environment),
                  gitHub: nil)
    }

    init(output: TextOutput, errors: TextOutput, capabilities: TerminalCapabilities, gitHub: GitHubActionsCommands?,
         liveThreshold: Duration = .seconds(5)) {
        self.output = output
        self.errors = errors
        self.capabilities = capabilities
        self.gitHub = gitHub
        let elapsed = capabilities.liveStatus ? ElapsedIndicator(output: output, threshold: liveThreshold) : nil
        self.elapsed = elapsed
        self.ticker = elapsed.map(ElapsedTicker.init)
    }

    public func reportOutput(step: Int, lines: OutputLines) {
        if let elapsed { elapsed.writeOutputLines(lines) } else { output.writeOutputLines(lines) }
    }

    public func report(_ event: RunEvent) {
        switch event {
        case .laneStarted(let lane, let at):
            line(paint("[\(at.localClockTime)] lane \(lane)", .bold))
        case .stepStarted(let start):
            let banner = "\(start.index). \(start.id): \(start.banner)"
            // On GitHub Actions the group's title is the banner: it stays visible while the group is folded.
            if let gitHub {
                line(gitHub.group("[\(start.at.localClockTime)] \(banner)"))
            } else {
                line(paint("[\(start.at.localClockTime)] --- \(banner)", .cyan))
            }
            elapsed?.stepStarted("\(start.index). \(start.id)", at: .now)
        case .output(_, let text):
            // One line reported on its own (a step's output comes in batches: `reportOutput`).
            if let elapsed { elapsed.write(text + "\n") } else { output.writeOutputLine(text) }
        case .message(let text):
            line(text)
        case .result(let result):
            line("Result:\n" + result.lines.map { "  \($0)" }.joined(separator: "\n"))
        case .stepFinished(let record):
            elapsed?.stepEnded()
            if let gitHub { line(gitHub.endGroup) }
            if !record.succeeded { line(paint("    \(record.id) failed after \(record.duration.formattedSeconds)", .red)) }
        case .laneFinished(let summary):
            elapsed?.stepEnded()
            line(summaryTable(summary))
            if let failure = summary.failure {
                errors.writeLine(paint("error: lane \(summary.lane) failed", .red))
                if let step = summary.steps.last(where: { !$0.succeeded }) {
                    errors.writeLine("  failing step: \(step.index). \(step.id): \(step.banner)")
                }
                errors.writeLine(failure.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { "  \($0)" }.joined(separator: "\n"))
                if let gitHub { line(gitHub.error(lane: summary.lane, message: failure)) }
            } else {
                line(paint("lane \(summary.lane) succeeded in \(summary.duration.formattedSeconds)", .green))
            }
        }
    }

    /// The table after a lane: each step with what it ran (a shell step's command, else its banner),
    /// its duration in seconds to the millisecond, and its result.
    func summaryTable(_ summary: LaneSummary) -> String {
        let rows = summary.steps.map { record in
            [String(record.index), record.id, Self.truncated(record.banner), record.duration.formattedSeconds,
             record.succeeded ? "ok" : "FAILED"]
        }
        return TextTable(header: ["#", "Step", "What", "Duration", "Result"], rows: rows).rendered
    }

    /// One line, cut to `summaryTextWidth` characters; banners are redacted before they get here.
    static func truncated(_ text: String) -> String {
        let singleLine = text.split(whereSeparator: \.isNewline).joined(separator: " ")
        guard singleLine.count > summaryTextWidth else { return singleLine }
        return singleLine.prefix(summaryTextWidth - 1) + "…"
    }

    private func line(_ text: String) {
        if let elapsed { elapsed.write(text + "\n") } else { output.writeLine(text) }
    }

    private enum Color: String {
        case bold = "1", red = "31", green = "32", cyan = "36"
    }

    private func paint(_ text: String, _ color: Color) -> String {
        capabilities.colors ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
    }
}

/// A plain-text table with aligned columns.
struct TextTable {
    let header: [String]
    let rows: [[String]]

    var rendered: String {
        let all = [header] + rows
        let widths = header.indices.map { column in all.map { $0[column].count }.max() ?? 0 }
        let rule = "+" + widths.map { String(repeating: "-", count: $0 + 2) }.joined(separator: "+") + "+"
        func line(_ cells: [String]) -> String {
            "| " + zip(cells, widths).map { $0 + String(repeating: " ", count: $1 - $0.count) }.joined(separator: " | ") + " |"
        }
        return ([rule, line(header), rule] + rows.map(line) + [rule]).joined(separator: "\n")
    }
}
