internal import LanesPlatform
/// `--json`: one JSON object per line on standard output, for machines.
public struct JSONLinesReporter: Reporter {
    let output: TextOutput
    /// Facts about the run added to `lane_started`: its trigger (`manual`, `ci`, `timer`, `scm`) and commit.
    let runContext: [(String, JSONValue)]

    public init(output: TextOutput) { self.init(output: output, runContext: []) }

    init(output: TextOutput, runContext: [(String, JSONValue)]) {
        self.output = output
        self.runContext = runContext
    }

    /// A line the Lanefile printed itself (`print`), already redacted, as an output event.
    @Sendable static func printedLineEvent(_ line: String) -> String {
        JSONValue.object([("event", "output"), ("source", "print"), ("line", .string(line))]).serialized
    }

    private static let outputEventStart = Array(#"{"event":"output","step":"#.utf8)
    private static let outputEventLineKey = Array(#","line":"#.utf8)

    public func report(_ event: RunEvent) {
        if case .output(let step, let line) = event {
            // The hot path (a child may print millions of lines): the same text `fields(for:)` gives,
            // written without building the value, and queued with the lines around it.
            let line = output.redactor.redact(line)
            output.writeEncodedOutputLine { bytes in
                bytes.append(contentsOf: Self.outputEventStart)
                bytes.append(contentsOf: String(step).utf8)  // a small string: no allocation
                bytes.append(contentsOf: Self.outputEventLineKey)
                JSONText.appendQuoted(line, to: &bytes)
                bytes.append(UInt8(ascii: "}"))
            }
            return
        }
        output.writeEncodedLine(JSONValue.object(fields(for: event)).serialized(redactor: output.redactor))
    }

    private func fields(for event: RunEvent) -> [(String, JSONValue)] {
        switch event {
        case .laneStarted(let lane, let at):
            return [("event", "lane_started"), ("lane", .string(lane)), ("time", .string(at.iso8601))] + runContext
        case .stepStarted(let start):
            return [("event", "step_started"), ("step", .number(Double(start.index))), ("id", .string(start.id)),
                    ("banner", .string(start.banner)), ("time", .string(start.at.iso8601)),
                    ("options", .object(start.options.map { option in
                        (option.name, .object([("value", .string(option.shownValue)), ("source", .string(option.source.description))]))
                    }))]
        case .output(let step, let line):
            return [("event", "output"), ("step", .number(Double(step))), ("line", .string(line))]
        case .message(let text):
            return [("event", "message"), ("text", .string(text))]
        case .result(let result):
            return [("event", "result"), ("value", result.json)]
        case .stepFinished(let record):
            var fields: [(String, JSONValue)] = [
                ("event", "step_finished"), ("step", .number(Double(record.index))), ("id", .string(record.id)),
                ("duration_ms", .number((record.duration.secondsValue * 1000).rounded())),
                ("result", .string(record.succeeded ? "ok" : "failed")),
            ]
            if case .failed(let message, let tail) = record.outcome {
                fields.append(("error", .string(message)))
                fields.append(("output_tail", .array(tail.map { .string($0) })))
            }
            if !record.facts.isEmpty { fields.append(("reported", record.facts.json)) }
            return fields
        case .laneFinished(let summary):
            var fields: [(String, JSONValue)] = [
                ("event", "lane_finished"), ("lane", .string(summary.lane)),
                ("result", .string(summary.failure == nil ? "ok" : "failed")),
                ("duration_ms", .number((summary.duration.secondsValue * 1000).rounded())),
                ("steps", .number(Double(summary.steps.count))),
            ]
            if let failure = summary.failure { fields.append(("error", .string(failure))) }
            return fields
        }
    }
}
