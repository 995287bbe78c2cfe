import LanesPlatform
import LanesWire

/// What a run's `events.jsonl` says: its steps, its outcome and what its steps reported. The
/// history, `lanes history --json`, `lanes logs` and the web pages read runs through this, never
/// through the text of a log. Lines are `LanesWire.RunEventRecord`s, the type the runner wrote them with.
public struct RunEventLog: Sendable, Hashable {
    public var lane: String?
    /// `manual` or `ci` as the runner saw it; the daemon's own runs know their trigger themselves.
    public var trigger: String?
    /// The commit checked out when the lane started.
    public var commit: String?
    /// When the lane started (seconds since 1970) and how long it took, from its events.
    public var startedSeconds: Double?
    public var durationMilliseconds: Double?
    /// nil while the lane runs (or when it was killed before its last event).
    public var succeeded: Bool?
    public var error: String?
    public var steps: [RunStep] = []
    public var version: String?
    public var buildNumber: String?
    public var artifacts: [String] = []
    /// Every line in order, as a person reads the run: banners, output, messages and the outcome.
    public var lines: [String] = []

    public init() {}

    /// Reads `events.jsonl`; a line that is not an event (a torn last line) is skipped.
    public init(path: String) throws {
        self.init(bytes: try FilePath.readBytes(path))
    }

    public init(bytes: [UInt8]) {
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let record = RunEventRecord(line: line) else { continue }
            apply(record)
        }
    }

    private mutating func apply(_ record: RunEventRecord) {
        switch record {
        case .laneStarted(let started):
            lane = started.lane
            trigger = started.trigger
            commit = started.commit
            startedSeconds = started.time.secondsSince1970
            lines.append("[\(started.time.iso8601)] lane \(started.lane)")
        case .stepStarted(let started):
            steps.append(RunStep(index: started.step, id: started.id, banner: started.banner, durationMilliseconds: nil,
                                 succeeded: nil, error: nil))
            lines.append("[\(started.time.iso8601)] --- \(started.step). \(started.id): \(started.banner)")
        case .output(let output):
            lines.append(output.line)
        case .outputBatch(let batch):
            lines += batch.lines
        case .message(let message):
            lines.append(message.text)
        case .stepFinished(let finished):
            let position = steps.lastIndex { $0.index == finished.step } ?? {
                steps.append(RunStep(index: finished.step, id: finished.id, banner: "", durationMilliseconds: nil, succeeded: nil, error: nil))
                return steps.count - 1
            }()
            steps[position].durationMilliseconds = finished.durationMilliseconds
            steps[position].succeeded = finished.succeeded
            steps[position].error = finished.error
            if let reported = finished.reported {
                if let value = reported.version { version = value }
                if let value = reported.buildNumber { buildNumber = value }
                artifacts += reported.artifacts ?? []
            }
            if !finished.succeeded { lines.append("    \(steps[position].id) failed: \(finished.error ?? "")") }
        case .laneFinished(let finished):
            durationMilliseconds = Double(finished.durationMilliseconds)
            succeeded = finished.succeeded
            error = finished.error
            lines.append(finished.succeeded ? "lane \(finished.lane) succeeded" : "error: lane \(finished.lane) failed: \(finished.error ?? "")")
        case .result, .unknown:
            break
        }
    }
}

/// One step of a recorded run.
public struct RunStep: Sendable, Hashable {
    public var index: Int
    public var id: String
    /// What the step ran, whole (the terminal's table shortens it, nothing else does).
    public var banner: String
    public var durationMilliseconds: Int64?
    /// nil when the run ended before the step did.
    public var succeeded: Bool?
    public var error: String?

    public init(index: Int, id: String, banner: String, durationMilliseconds: Int64?, succeeded: Bool?, error: String?) {
        self.index = index
        self.id = id
        self.banner = banner
        self.durationMilliseconds = durationMilliseconds
        self.succeeded = succeeded
        self.error = error
    }
}
