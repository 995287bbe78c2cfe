public import LanesPlatform

/// A wall-clock instant as every record carries it: `2026-11-21T20:43:56.123Z` (UTC, milliseconds),
/// formatted and read here and nowhere else.
public struct Timestamp: Sendable, Hashable, Comparable, Codable, CustomStringConvertible {
    public let secondsSinceEpoch: Int
    public let nanoseconds: Int

    public init(secondsSinceEpoch: Int, nanoseconds: Int = 0) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.nanoseconds = nanoseconds
    }

    /// From seconds since 1970 with a fraction (a clock reading).
    public init(secondsSince1970: Double) {
        let whole = secondsSince1970.rounded(.down)
        self.init(secondsSinceEpoch: Int(whole), nanoseconds: min(999_999_999, Int(((secondsSince1970 - whole) * 1e9).rounded())))
    }

    /// The system's wall clock now.
    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(secondsSinceEpoch: Int(spec.tv_sec), nanoseconds: Int(spec.tv_nsec))
    }

    public var secondsSince1970: Double { Double(secondsSinceEpoch) + Double(nanoseconds) / 1e9 }

    /// Milliseconds since 1970, as run folders are named.
    public var millisecondsSince1970: Int64 { Int64(secondsSinceEpoch) * 1000 + Int64(nanoseconds / 1_000_000) }

    /// `2026-11-21T20:43:56.123Z`.
    public var iso8601: String {
        let time = CivilTime(secondsSince1970: Int64(secondsSinceEpoch))
        let millis = String(nanoseconds / 1_000_000)
        return time.iso8601 + "." + String(repeating: "0", count: 3 - millis.count) + millis + "Z"
    }

    public var description: String { iso8601 }

    /// Reads `YYYY-MM-DDTHH:MM:SS`, an optional fraction, then `Z` or an offset `±HH:MM`; nil for
    /// anything else (a date that does not exist included).
    public init?(iso8601 text: String) {
        let bytes = Array(text.utf8)
        func number(_ start: Int, _ count: Int) -> Int? {
            guard start + count <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[start..<(start + count)] {
                guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
                value = value * 10 + Int(byte - UInt8(ascii: "0"))
            }
            return value
        }
        guard bytes.count >= 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
              bytes[10] == UInt8(ascii: "T") || bytes[10] == UInt8(ascii: "t"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
              let year = number(0, 4), let month = number(5, 2), let day = number(8, 2),
              let hour = number(11, 2), let minute = number(14, 2), let second = number(17, 2),
              hour < 24, minute < 60, second < 61 else { return nil }
        let date = CivilDate(year: Int64(year), month: month, day: day)
        guard date.isValid else { return nil }
        var index = 19
        var nanoseconds = 0
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            index += 1
            var scale = 100_000_000
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                nanoseconds += Int(bytes[index] - UInt8(ascii: "0")) * scale
                scale /= 10
                index += 1
            }
            guard index > start else { return nil }
        }
        var offset = 0
        guard index < bytes.count else { return nil }
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            index += 1
        } else if bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
            guard index + 6 <= bytes.count, bytes[index + 3] == UInt8(ascii: ":"),
                  let hours = number(index + 1, 2), let minutes = number(index + 4, 2) else { return nil }
            offset = (hours * 3600 + minutes * 60) * (bytes[index] == UInt8(ascii: "-") ? -1 : 1)
            index += 6
        } else {
            return nil
        }
        guard index == bytes.count else { return nil }
        let seconds = CivilTime(date: date, hour: hour, minute: minute, second: second).secondsSince1970 - Int64(offset)
        self.init(secondsSinceEpoch: Int(seconds), nanoseconds: nanoseconds)
    }

    public static func < (lhs: Timestamp, rhs: Timestamp) -> Bool {
        (lhs.secondsSinceEpoch, lhs.nanoseconds) < (rhs.secondsSinceEpoch, rhs.nanoseconds)
    }

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        guard let parsed = Timestamp(iso8601: text) else {
            throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "\"\(text)\" is not an ISO 8601 time"))
        }
        self = parsed
    }

    public func encode(to encoder: any Encoder) throws {
        var single = encoder.singleValueContainer()
        try single.encode(iso8601)
    }
}
