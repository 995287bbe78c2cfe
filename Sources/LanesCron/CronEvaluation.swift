#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// `lanes cron eval`: one JSON object per input line, `{"id","spec","seed","tz","start"}`, answered
/// by one JSON line, `{"id","ok","error"?,"warning"?,"tabs":[…],"next":[…]}`, with sorted keys.
/// `tz` is the zone for specs without a `TZ=` line; `next` holds up to 5 fire times from `start`
/// (rounded up to a whole minute), as UTC ISO-8601 instants. This is the format outside checkers
/// use to compare lanes with Jenkins.
public struct CronEvaluator: Sendable {
    private let timeZones: SystemTimeZoneResolver
    private let fireTimeCount: Int

    public init(fireTimeCount: Int = 5) {
        timeZones = SystemTimeZoneResolver()
        self.fireTimeCount = fireTimeCount
    }

    /// Answers one input line. Never throws: a malformed line gets `ok: false` with an `error`.
    public func evaluate(jsonLine: String) -> String {
        let answer: Answer
        do {
            let request = try JSONDecoder().decode(Request.self, from: Data(jsonLine.utf8))
            answer = evaluate(request)
        } catch {
            answer = Answer(id: .null, ok: false, error: "Malformed input line (expected a JSON object with id, spec, seed, tz, start): \(error)")
        }
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        // Encoding plain strings, numbers and arrays cannot fail.
        let data = (try? encoder.encode(answer)) ?? Data("{\"ok\":false}".utf8)
        return String(decoding: data, as: UTF8.self)
    }

    private func evaluate(_ request: Request) -> Answer {
        let zoneIdentifier = request.tz ?? "UTC"
        guard let zone = timeZones.timeZone(identifier: zoneIdentifier) else {
            return Answer(id: request.id, ok: false, error: "Unknown time zone '\(zoneIdentifier)' in the \"tz\" field")
        }
        let schedule: CronSchedule
        do {
            schedule = try CronSchedule(parsing: request.spec, seed: request.seed, timeZones: timeZones)
        } catch {
            return Answer(id: request.id, ok: false, error: error.message)
        }
        var answer = Answer(id: request.id, ok: true)
        answer.warning = schedule.warning
        answer.tabs = schedule.entries.map { entry in
            Dictionary(uniqueKeysWithValues: CronField.allCases.map { ($0.key, entry.table.values(of: $0)) })
        }
        if let startText = request.start {
            guard let start = CronInstant(iso8601: startText, zone: zone) else {
                return Answer(id: request.id, ok: false, error: "Malformed \"start\" '\(startText)': expected ISO 8601 such as 2024-06-15T12:34:00Z")
            }
            answer.next = schedule.fireTimes(onOrAfter: start, defaultZone: zone, count: fireTimeCount).map(\.description)
        }
        return answer
    }

    private struct Request: Decodable {
        var id: JSONScalar
        var spec: String
        var seed: String?
        var tz: String?
        var start: String?

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            id = try container.decodeIfPresent(JSONScalar.self, forKey: .id) ?? .null
            spec = try container.decode(String.self, forKey: .spec)
            seed = try container.decodeIfPresent(String.self, forKey: .seed)
            tz = try container.decodeIfPresent(String.self, forKey: .tz)
            start = try container.decodeIfPresent(String.self, forKey: .start)
        }

        private enum CodingKeys: String, CodingKey { case id, spec, seed, tz, start }
    }

    private struct Answer: Encodable {
        var id: JSONScalar
        var ok: Bool
        var error: String?
        var warning: String?
        var tabs: [[String: [Int]]] = []
        var next: [String] = []

        init(id: JSONScalar, ok: Bool, error: String? = nil) {
            self.id = id
            self.ok = ok
            self.error = error
        }
    }
}

/// A request id as given: string, integer, other number, boolean or null.
enum JSONScalar: Codable, Sendable {
    case string(String)
    case integer(Int64)
    case number(Double)
    case boolean(Bool)
    case null

    init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if container.decodeNil() {
            self = .null
        } else if let value = try? container.decode(Bool.self) {
            self = .boolean(value)
        } else if let value = try? container.decode(Int64.self) {
            self = .integer(value)
        } else if let value = try? container.decode(Double.self) {
            self = .number(value)
        } else {
            self = .string(try container.decode(String.self))
        }
    }

    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case let .string(value): try container.encode(value)
        case let .integer(value): try container.encode(value)
        case let .number(value): try container.encode(value)
        case let .boolean(value): try container.encode(value)
        case .null: try container.encodeNil()
        }
    }
}
