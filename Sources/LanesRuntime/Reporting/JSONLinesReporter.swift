internal import LanesPlatform
internal import LanesWire

/// `--json`: one JSON object per line on standard output, for machines. Each line is a
/// `LanesWire.RunEventRecord`, the type the history reads them back with.
public struct JSONLinesReporter: Reporter {
    let output: TextOutput
    /// Facts about the run that `lane_started` carries.
    let runContext: RunContext
    /// Whether a batch of a step's output is one `output_batch` record (the events file: what
    /// `lanes logs`, the history and the web read) rather than an `output` record per line (`--json`).
    let batchesOutput: Bool

    /// `lane_started`'s facts: the trigger (`manual`, `ci`, `timer`, `scm`) and the commit checked out.
    struct RunContext: Sendable {
        var trigger: String?
        var commit: String?
    }

    public init(output: TextOutput) { self.init(output: output, runContext: RunContext()) }

    init(output: TextOutput, runContext: RunContext, batchesOutput: Bool = false) {
        self.output = output
        self.runContext = runContext
        self.batchesOutput = batchesOutput
    }

    /// A line the Lanefile printed itself (`print`), already redacted, as an output event.
    @Sendable static func printedLineEvent(_ line: String) -> String {
        RunEventRecord.output(.init(step: nil, source: RunEventRecord.Output.printed, line: line)).line
    }

    /// The hot path (a child may print millions of lines): each line's record as bytes, without
    /// building the value, and the batch queued as one. The lines are redacted already (`StepLog`).
    public func reportOutput(step: Int, lines: OutputLines) {
        if batchesOutput {
            return output.writeEncodedOutputLines { bytes in
                lines.bytes.withUnsafeBufferPointer { RunEventRecord.OutputBatch.appendEncoded(step: step, utf8Text: $0, to: &bytes) }
            }
        }
        output.writeEncodedOutputLines { bytes in
            lines.bytes.withUnsafeBufferPointer { RunEventRecord.Output.appendEncoded(step: step, utf8Lines: $0, to: &bytes) }
        }
    }

    public func report(_ event: RunEvent) {
        if case .output(let step, let line) = event {
            // One line reported on its own (a step's output comes in batches: `reportOutput`).
            let line = output.redactor.redact(line)
            return output.writeEncodedOutputLines { bytes in
                RunEventRecord.Output.appendEncoded(step: step, line: line, to: &bytes)
                bytes.append(UInt8(ascii: "\n"))
            }
        }
        guard let encoded = try? WireEncoder().encode(record(for: event)) else { return }
        output.writeEncodedLine(encoded.serialized(redactor: output.redactor))
    }

    func record(for event: RunEvent) -> RunEventRecord {
        switch event {
        case .laneStarted(let lane, let at):
            return .laneStarted(.init(lane: lane, time: at, trigger: runContext.trigger, commit: runContext.commit))
        case .stepStarted(let start):
            return .stepStarted(.init(step: start.index, id: start.id, banner: start.banner, time: start.at,
                                      options: WireFields(start.options.map { ($0.name, .init(value: $0.shownValue, source: $0.source.description)) })))
        case .output(let step, let line):
            return .output(.init(step: step, line: line))
        case .message(let text):
            return .message(.init(text: text))
        case .result(let result):
            return .result(.init(value: result.json))
        case .stepFinished(let record):
            var error: String?, tail: [String]?
            if case .failed(let message, let lines) = record.outcome { (error, tail) = (message, lines) }
            return .stepFinished(.init(step: record.index, id: record.id, durationMilliseconds: record.duration.milliseconds,
                                       succeeded: record.succeeded, error: error, outputTail: tail,
                                       reported: record.facts.isEmpty ? nil : record.facts.record))
        case .laneFinished(let summary):
            return .laneFinished(.init(lane: summary.lane, succeeded: summary.failure == nil, durationMilliseconds: summary.duration.milliseconds,
                                       steps: summary.steps.count, error: summary.failure))
        }
    }
}

extension Duration {
    /// Whole milliseconds, rounded.
    var milliseconds: Int64 { Int64((secondsValue * 1000).rounded()) }
}
