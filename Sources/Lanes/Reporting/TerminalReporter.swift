/// Human output: a banner per step with a timestamp, the step's output, and a summary table.
public struct TerminalReporter: Reporter {
    let output: TextOutput
    let errors: TextOutput
    let colors: Bool

    /// Colours only on a terminal, and never when `NO_COLOR` is set (https://no-color.org).
    public init(output: TextOutput, errors: TextOutput, environment: [String: String]) {
        self.output = output
        self.errors = errors
        self.colors = output.isTerminal && (environment["NO_COLOR"] ?? "").isEmpty && environment["TERM"] != "dumb"
    }

    public func report(_ event: RunEvent) {
        switch event {
        case .laneStarted(let lane, let at):
            output.writeLine(paint("[\(at.localClockTime)] lane \(lane)", .bold))
        case .stepStarted(let start):
            output.writeLine(paint("[\(start.at.localClockTime)] --- \(start.index). \(start.id): \(start.banner)", .cyan))
        case .output(_, let line):
            output.writeLine(line)
        case .message(let text):
            output.writeLine(text)
        case .result(let result):
            output.writeLine("Result:\n" + result.lines.map { "  \($0)" }.joined(separator: "\n"))
        case .stepFinished(let record):
            if !record.succeeded { output.writeLine(paint("    \(record.id) failed after \(record.duration.formattedSeconds)", .red)) }
        case .laneFinished(let summary):
            output.writeLine(summaryTable(summary))
            if let failure = summary.failure {
                errors.writeLine(paint("error: lane \(summary.lane) failed", .red))
                if let step = summary.steps.last(where: { !$0.succeeded }) {
                    errors.writeLine("  failing step: \(step.index). \(step.id): \(step.banner)")
                }
                errors.writeLine(failure.split(separator: "\n", omittingEmptySubsequences: false)
                    .map { "  \($0)" }.joined(separator: "\n"))
            } else {
                output.writeLine(paint("lane \(summary.lane) succeeded in \(summary.duration.formattedSeconds)", .green))
            }
        }
    }

    private func summaryTable(_ summary: LaneSummary) -> String {
        let rows = summary.steps.map { record in
            [String(record.index), record.id, record.duration.formattedSeconds, record.succeeded ? "ok" : "FAILED"]
        }
        return TextTable(header: ["#", "Step", "Duration", "Result"], rows: rows).rendered
    }

    private enum Color: String {
        case bold = "1", red = "31", green = "32", cyan = "36"
    }

    private func paint(_ text: String, _ color: Color) -> String {
        colors ? "\u{1B}[\(color.rawValue)m\(text)\u{1B}[0m" : text
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
