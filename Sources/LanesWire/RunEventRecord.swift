public import LanesPlatform

/// The version of the records in this module. A writer puts it in the first record of a document
/// (`lane_started`, the listing); a reader reads what it knows of a newer version and ignores the rest.
public enum WireSchema {
    public static let version = 1
}

/// One line of `--json` output and of a run's `events.jsonl`: `{"event":"NAME", ...fields}`, every
/// key in snake_case. Written by the runner, read by the history, `lanes logs` and the web pages,
/// through these types and no other.
public enum RunEventRecord: Sendable, Equatable, Codable {
    case laneStarted(LaneStarted)
    case stepStarted(StepStarted)
    case output(Output)
    /// A step's output lines as one record (the events file's: `lanes logs`, the history and the
    /// web read it; `--json` on standard output has one `output` record per line).
    case outputBatch(OutputBatch)
    case message(Message)
    case stepFinished(StepFinished)
    case result(Result)
    case laneFinished(LaneFinished)
    /// An event this reader does not know (a newer writer's), by name.
    case unknown(String)

    public var name: String {
        switch self {
        case .laneStarted: "lane_started"
        case .stepStarted: "step_started"
        case .output: "output"
        case .outputBatch: "output_batch"
        case .message: "message"
        case .stepFinished: "step_finished"
        case .result: "result"
        case .laneFinished: "lane_finished"
        case .unknown(let name): name
        }
    }

    private enum Key: String, CodingKey { case event }

    public init(from decoder: any Decoder) throws {
        let name = try decoder.container(keyedBy: Key.self).decode(String.self, forKey: .event)
        switch name {
        case "lane_started": self = .laneStarted(try LaneStarted(from: decoder))
        case "step_started": self = .stepStarted(try StepStarted(from: decoder))
        case "output": self = .output(try Output(from: decoder))
        case "output_batch": self = .outputBatch(try OutputBatch(from: decoder))
        case "message": self = .message(try Message(from: decoder))
        case "step_finished": self = .stepFinished(try StepFinished(from: decoder))
        case "result": self = .result(try Result(from: decoder))
        case "lane_finished": self = .laneFinished(try LaneFinished(from: decoder))
        default: self = .unknown(name)
        }
    }

    /// `event` first, then the record's fields, in one object.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: Key.self)
        try container.encode(name, forKey: .event)
        switch self {
        case .laneStarted(let record): try record.encode(to: encoder)
        case .stepStarted(let record): try record.encode(to: encoder)
        case .output(let record): try record.encode(to: encoder)
        case .outputBatch(let record): try record.encode(to: encoder)
        case .message(let record): try record.encode(to: encoder)
        case .stepFinished(let record): try record.encode(to: encoder)
        case .result(let record): try record.encode(to: encoder)
        case .laneFinished(let record): try record.encode(to: encoder)
        case .unknown: break
        }
    }

    /// The line as written: the JSON object, no newline.
    public var line: String { (try? WireEncoder().encodeText(self)) ?? "{}" }

    /// Reads one line; nil for a line that is not an event (a torn last line, a stray print).
    public init?(line: some Collection<UInt8>) {
        guard let record = try? WireDecoder().decode(RunEventRecord.self, from: line) else { return nil }
        self = record
    }

    public struct LaneStarted: Sendable, Equatable, Codable {
        /// `WireSchema.version` of the writer.
        public var schema: Int?
        public var lane: String
        public var time: Timestamp
        /// `manual`, `ci`, `timer`, `scm`, `catch-up`.
        public var trigger: String?
        /// The commit checked out.
        public var commit: String?

        public init(schema: Int? = WireSchema.version, lane: String, time: Timestamp, trigger: String? = nil, commit: String? = nil) {
            self.schema = schema
            self.lane = lane
            self.time = time
            self.trigger = trigger
            self.commit = commit
        }
    }

    public struct StepStarted: Sendable, Equatable, Codable {
        public var step: Int
        public var id: String
        public var banner: String
        public var time: Timestamp
        /// Each option's shown value (secrets masked) and where it came from, in declaration order.
        public var options: WireFields<OptionSource>?

        public init(step: Int, id: String, banner: String, time: Timestamp, options: WireFields<OptionSource>?) {
            self.step = step
            self.id = id
            self.banner = banner
            self.time = time
            self.options = options
        }
    }

    public struct OptionSource: Sendable, Equatable, Codable {
        public var value: String
        public var source: String

        public init(value: String, source: String) {
            self.value = value
            self.source = source
        }
    }

    /// A line a step's process printed (`step`), or one the Lanefile printed itself (`source: "print"`).
    public struct Output: Sendable, Equatable, Codable {
        public var step: Int?
        public var source: String?
        public var line: String

        public init(step: Int?, source: String? = nil, line: String) {
            self.step = step
            self.source = source
            self.line = line
        }

        /// A printed line's source.
        public static let printed = "print"

        private static let stepStart = Array(#"{"event":"output","step":"#.utf8)
        private static let lineKey = Array(#","line":"#.utf8)

        /// The bytes `WireEncoder` writes for `Output(step: step, line: line)` inside
        /// `RunEventRecord.output`, appended without building a value: the hot path of a child that
        /// prints millions of lines. `WireFastPathTests` holds the two to the same bytes.
        public static func appendEncoded(step: Int, line: String, to bytes: inout [UInt8]) {
            bytes.append(contentsOf: stepStart)
            bytes.append(contentsOf: String(step).utf8)  // a small string: no allocation
            bytes.append(contentsOf: lineKey)
            JSONText.appendQuoted(line, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
        }

        /// `appendEncoded` for each line of `lines` (valid UTF-8, each line ending in `\n`: a batch
        /// of a step's output), each record followed by `\n`. What comes before a line's text is the
        /// same for the whole batch, so it is built once.
        public static func appendEncoded(step: Int, utf8Lines lines: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
            guard let base = lines.baseAddress else { return }
            let prefix = stepStart + Array(String(step).utf8) + lineKey
            prefix.withUnsafeBufferPointer { prefix in
                var start = 0
                while start < lines.count {
                    let end = memchr(base + start, 0x0A, lines.count - start).map { UnsafeRawPointer($0) - UnsafeRawPointer(base) } ?? lines.count
                    bytes.append(contentsOf: prefix)
                    JSONText.appendQuoted(utf8: UnsafeBufferPointer(rebasing: lines[start..<end]), to: &bytes)
                    bytes.append(UInt8(ascii: "}"))
                    bytes.append(UInt8(ascii: "\n"))
                    start = end + 1
                }
            }
        }
    }

    /// Lines of a step's output (`step`), as one string: each line followed by `\n`. Written once
    /// per read of the child, so a child printing millions of lines costs the events file one
    /// record per batch, not a record (and its keys) per line.
    public struct OutputBatch: Sendable, Equatable, Codable {
        public var step: Int
        public var text: String

        public init(step: Int, text: String) {
            self.step = step
            self.text = text
        }

        /// The lines, without their line ends.
        public var lines: [String] {
            var lines = text.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
            if lines.last == "" { lines.removeLast() }
            return lines
        }

        private static let stepStart = Array(#"{"event":"output_batch","step":"#.utf8)
        private static let textKey = Array(#","text":"#.utf8)

        /// The bytes `WireEncoder` writes for `OutputBatch(step: step, text: text)` inside
        /// `RunEventRecord.outputBatch`, followed by `\n`, appended without building a value; `text`
        /// is valid UTF-8 (`WireFastPathTests` holds the two to the same bytes).
        public static func appendEncoded(step: Int, utf8Text text: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
            bytes.append(contentsOf: stepStart)
            bytes.append(contentsOf: String(step).utf8)
            bytes.append(contentsOf: textKey)
            JSONText.appendQuoted(utf8: text, to: &bytes)
            bytes.append(UInt8(ascii: "}"))
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    public struct Message: Sendable, Equatable, Codable {
        public var text: String
        public init(text: String) { self.text = text }
    }

    /// What `lanes run STEP` returned.
    public struct Result: Sendable, Equatable, Codable {
        public var value: JSONValue
        public init(value: JSONValue) { self.value = value }
    }

    public struct StepFinished: Sendable, Equatable, Codable {
        public var step: Int
        public var id: String
        public var durationMilliseconds: Int64
        /// `ok` or `failed`.
        public var result: String
        public var error: String?
        /// The step's last output lines, when it failed.
        public var outputTail: [String]?
        /// What the step's result says about the run.
        public var reported: ReportedFacts?

        public init(step: Int, id: String, durationMilliseconds: Int64, succeeded: Bool, error: String? = nil,
                    outputTail: [String]? = nil, reported: ReportedFacts? = nil) {
            self.step = step
            self.id = id
            self.durationMilliseconds = durationMilliseconds
            self.result = succeeded ? "ok" : "failed"
            self.error = error
            self.outputTail = outputTail
            self.reported = reported
        }

        public var succeeded: Bool { result == "ok" }

        enum CodingKeys: String, CodingKey {
            case step, id, result, error, reported
            case durationMilliseconds = "duration_ms"
            case outputTail = "output_tail"
        }

        public func encode(to encoder: any Encoder) throws {
            // The order people read: which step, how long, how it went, then why.
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(step, forKey: .step)
            try container.encode(id, forKey: .id)
            try container.encode(durationMilliseconds, forKey: .durationMilliseconds)
            try container.encode(result, forKey: .result)
            try container.encodeIfPresent(error, forKey: .error)
            try container.encodeIfPresent(outputTail, forKey: .outputTail)
            try container.encodeIfPresent(reported, forKey: .reported)
        }
    }

    /// The version and build number a step set or built, the artifacts it made.
    public struct ReportedFacts: Sendable, Equatable, Codable {
        public var version: String?
        public var buildNumber: String?
        public var artifacts: [String]?

        public init(version: String? = nil, buildNumber: String? = nil, artifacts: [String]? = nil) {
            self.version = version
            self.buildNumber = buildNumber
            self.artifacts = artifacts
        }

        enum CodingKeys: String, CodingKey {
            case version, artifacts
            case buildNumber = "build_number"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encodeIfPresent(version, forKey: .version)
            try container.encodeIfPresent(buildNumber, forKey: .buildNumber)
            try container.encodeIfPresent(artifacts, forKey: .artifacts)
        }
    }

    public struct LaneFinished: Sendable, Equatable, Codable {
        public var lane: String
        /// `ok` or `failed`.
        public var result: String
        public var durationMilliseconds: Int64
        /// How many steps ran.
        public var steps: Int
        public var error: String?

        public init(lane: String, succeeded: Bool, durationMilliseconds: Int64, steps: Int, error: String? = nil) {
            self.lane = lane
            self.result = succeeded ? "ok" : "failed"
            self.durationMilliseconds = durationMilliseconds
            self.steps = steps
            self.error = error
        }

        public var succeeded: Bool { result == "ok" }

        enum CodingKeys: String, CodingKey {
            case lane, result, steps, error
            case durationMilliseconds = "duration_ms"
        }

        public func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(lane, forKey: .lane)
            try container.encode(result, forKey: .result)
            try container.encode(durationMilliseconds, forKey: .durationMilliseconds)
            try container.encode(steps, forKey: .steps)
            try container.encodeIfPresent(error, forKey: .error)
        }
    }
}

/// An object whose keys are data (option names), kept in the order written: a `Dictionary` would
/// encode its keys in a different order every run.
public struct WireFields<Value: Codable & Sendable & Equatable>: Sendable, Equatable, Codable {
    public var fields: [(String, Value)]

    public init(_ fields: [(String, Value)]) { self.fields = fields }

    public subscript(name: String) -> Value? { fields.first { $0.0 == name }?.1 }

    public static func == (lhs: WireFields, rhs: WireFields) -> Bool {
        lhs.fields.count == rhs.fields.count && zip(lhs.fields, rhs.fields).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: JSONKey.self)
        fields = try container.allKeys.map { ($0.stringValue, try container.decode(Value.self, forKey: $0)) }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: JSONKey.self)
        for (name, value) in fields { try container.encode(value, forKey: JSONKey(name)) }
    }
}
