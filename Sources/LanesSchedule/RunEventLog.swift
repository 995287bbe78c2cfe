#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import LanesPlatform

/// What a run's `events.jsonl` says: its steps, its outcome and what its steps reported. The
/// history, `lanes history --json`, `lanes logs` and the web pages read runs through this, never
/// through the text of a log.
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
        let decoder = JSONDecoder()
        for line in bytes.split(separator: UInt8(ascii: "\n")) {
            guard let event = try? decoder.decode(EventLine.self, from: Data(line)) else { continue }
            apply(event)
        }
    }

    private mutating func apply(_ event: EventLine) {
        switch event.event {
        case "lane_started":
            lane = event.lane
            trigger = event.trigger
            commit = event.commit
            startedSeconds = event.time.flatMap(Self.seconds(iso8601:))
            lines.append("[\(event.time ?? "")] lane \(event.lane ?? "")")
        case "step_started":
            let index = event.step ?? steps.count + 1
            steps.append(RunStep(index: index, id: event.id ?? "", banner: event.banner ?? "", durationMilliseconds: nil,
                                 succeeded: nil, error: nil))
            lines.append("[\(event.time ?? "")] --- \(index). \(event.id ?? ""): \(event.banner ?? "")")
        case "output":
            lines.append(event.line ?? "")
        case "message":
            lines.append(event.text ?? "")
        case "step_finished":
            let index = event.step ?? steps.count
            let position = steps.lastIndex { $0.index == index } ?? {
                steps.append(RunStep(index: index, id: event.id ?? "", banner: "", durationMilliseconds: nil, succeeded: nil, error: nil))
                return steps.count - 1
            }()
            steps[position].durationMilliseconds = event.duration_ms.map { Int64($0) }
            steps[position].succeeded = event.result == "ok"
            steps[position].error = event.error
            if let reported = event.reported {
                if let value = reported.version { version = value }
                if let value = reported.build_number { buildNumber = value }
                artifacts += reported.artifacts ?? []
            }
            if event.result != "ok" { lines.append("    \(steps[position].id) failed: \(event.error ?? "")") }
        case "lane_finished":
            durationMilliseconds = event.duration_ms
            succeeded = event.result == "ok"
            error = event.error
            lines.append(succeeded == true ? "lane \(event.lane ?? lane ?? "") succeeded"
                                           : "error: lane \(event.lane ?? lane ?? "") failed: \(event.error ?? "")")
        default:
            break
        }
    }

    /// `2026-11-21T20:43:56.123Z` (the runner's `Timestamp.iso8601`) as seconds since 1970.
    static func seconds(iso8601 text: String) -> Double? {
        let digits = text.split(whereSeparator: { !$0.isNumber }).compactMap { Int($0) }
        guard digits.count >= 6, text.hasSuffix("Z") else { return nil }
        let (year, month, day) = (digits[0], digits[1], digits[2])
        // Days from 1970-01-01 in the proleptic Gregorian calendar (Howard Hinnant's days_from_civil).
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        let days = era * 146_097 + dayOfEra - 719_468
        let fraction = digits.count > 6 ? Double(digits[6]) / 1000 : 0
        return Double(days * 86_400 + digits[3] * 3600 + digits[4] * 60 + digits[5]) + fraction
    }

    private struct EventLine: Decodable {
        struct Reported: Decodable {
            var version: String?
            var build_number: String?
            var artifacts: [String]?
        }
        var event: String
        var lane: String?
        var trigger: String?
        var commit: String?
        var time: String?
        var step: Int?
        var id: String?
        var banner: String?
        var line: String?
        var text: String?
        var duration_ms: Double?
        var result: String?
        var error: String?
        var reported: Reported?
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
