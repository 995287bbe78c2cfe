internal import LanesPlatform

/// A point on the UTC time line. lanes' cron API uses it instead of Foundation's `Date` so that the
/// module's public interface stays free of Foundation (`Date(timeIntervalSince1970:)` converts).
/// Frozen so that callers in other modules read it directly despite library evolution.
@frozen
public struct CronInstant: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// Seconds since 1970-01-01T00:00:00Z.
    public var secondsSince1970: Double

    public init(secondsSince1970: Double) {
        self.secondsSince1970 = secondsSince1970
    }

    init(minuteNumber: Int64) {
        secondsSince1970 = Double(minuteNumber) * 60
    }

    /// Instants are clamped to years 1…9999 before any arithmetic, so NaN or absurd values cannot trap.
    static let supportedSeconds = -62_135_596_800.0...253_402_300_799.0
    /// The minute number of 9999-12-31T23:59Z, the last whole minute in the supported range.
    static let lastSupportedMinute = Int64((supportedSeconds.upperBound / 60).rounded(.down))

    var clampedSeconds: Double {
        secondsSince1970.isNaN ? 0 : min(max(secondsSince1970, Self.supportedSeconds.lowerBound), Self.supportedSeconds.upperBound)
    }

    /// The minute number (minutes since the epoch) of the first whole minute at or after this instant.
    var minuteRoundingUp: Int64 { Int64((clampedSeconds / 60).rounded(.up)) }

    /// The minute number of the whole minute containing this instant.
    var minuteRoundingDown: Int64 { Int64((clampedSeconds / 60).rounded(.down)) }

    public static func < (lhs: CronInstant, rhs: CronInstant) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    public func adding(seconds: Double) -> CronInstant { CronInstant(secondsSince1970: secondsSince1970 + seconds) }

    /// ISO 8601 in UTC, e.g. `2024-06-15T16:46:00Z` (fractions of a second when present).
    public var description: String { iso8601(offset: nil) }

    /// ISO 8601 with a numeric offset (`2024-06-15T12:46:00-04:00`), or `Z` when `offset` is nil.
    public func iso8601(offset: Int32?) -> String {
        let seconds = clampedSeconds
        let wholeSeconds = Int64(seconds.rounded(.down))
        let millis = min(999, Int(((seconds - Double(wholeSeconds)) * 1000).rounded()))
        let local = wholeSeconds + Int64(offset ?? 0)
        let days = CivilDate.floorDivide(local, 86_400)
        let secondOfDay = Int(local - days * 86_400)
        let date = CivilDate.date(dayNumber: days)
        var text = "\(Self.pad(date.year, 4))-\(Self.pad(date.month))-\(Self.pad(date.day))T"
        text += "\(Self.pad(secondOfDay / 3600)):\(Self.pad(secondOfDay / 60 % 60)):\(Self.pad(secondOfDay % 60))"
        if millis > 0 { text += "." + Self.pad(millis, 3) }
        guard let offset else { return text + "Z" }
        let sign = offset < 0 ? "-" : "+"
        let magnitude = Int(offset.magnitude)
        return text + "\(sign)\(Self.pad(magnitude / 3600)):\(Self.pad(magnitude / 60 % 60))"
    }

    private static func pad(_ value: some BinaryInteger, _ width: Int = 2) -> String {
        let digits = String(value.magnitude)
        let padded = String(repeating: "0", count: max(0, width - digits.count)) + digits
        return value < 0 ? "-" + padded : padded
    }

    /// Parses `YYYY-MM-DDTHH:MM[:SS[.fff…]](Z|±HH:MM|±HHMM)`; a space may replace the `T`.
    /// Without an offset the text is read in `zone` (UTC when nil), taking the earlier instant of a
    /// repeated wall time and the instant after a skipped one.
    public init?(iso8601 text: String, zone: (any CronTimeZone)? = nil) {
        let bytes = Array(text.utf8)
        var index = 0
        func number(_ width: Int) -> Int? {
            guard index + width <= bytes.count else { return nil }
            var value = 0
            for byte in bytes[index..<(index + width)] {
                guard byte >= 48, byte <= 57 else { return nil }
                value = value * 10 + Int(byte - 48)
            }
            index += width
            return value
        }
        func expect(_ characters: String) -> Bool {
            guard index < bytes.count, characters.utf8.contains(bytes[index]) else { return false }
            index += 1
            return true
        }
        guard let year = number(4), expect("-"), let month = number(2), expect("-"), let day = number(2),
              (1...12).contains(month), day >= 1, day <= CivilDate.daysInMonth(year: Int64(year), month: month),
              expect("Tt "), let hour = number(2), expect(":"), let minute = number(2), hour < 24, minute < 60
        else { return nil }
        var seconds = 0.0
        if index < bytes.count, bytes[index] == UInt8(ascii: ":") {
            index += 1
            guard let whole = number(2), whole < 60 else { return nil }
            seconds = Double(whole)
            if index < bytes.count, bytes[index] == UInt8(ascii: ".") || bytes[index] == UInt8(ascii: ",") {
                index += 1
                var scale = 0.1
                let fractionStart = index
                while index < bytes.count, bytes[index] >= 48, bytes[index] <= 57 {
                    seconds += Double(bytes[index] - 48) * scale
                    scale /= 10
                    index += 1
                }
                guard index > fractionStart else { return nil }
            }
        }
        let wall = CivilDate.dayNumber(year: Int64(year), month: month, day: day) * 86_400 + Int64(hour * 3600 + minute * 60)
        if index == bytes.count {
            let offset = Self.offset(ofWallSecond: wall, in: zone ?? FixedOffsetTimeZone.utc)
            secondsSince1970 = Double(wall - Int64(offset)) + seconds
            return
        }
        var offset = 0
        if bytes[index] == UInt8(ascii: "Z") || bytes[index] == UInt8(ascii: "z") {
            index += 1
        } else {
            let negative = bytes[index] == UInt8(ascii: "-")
            guard expect("+-"), let offsetHours = number(2) else { return nil }
            if index < bytes.count, bytes[index] == UInt8(ascii: ":") { index += 1 }
            guard let offsetMinutes = number(2), offsetHours < 24, offsetMinutes < 60 else { return nil }
            offset = (offsetHours * 3600 + offsetMinutes * 60) * (negative ? -1 : 1)
        }
        guard index == bytes.count else { return nil }
        secondsSince1970 = Double(wall - Int64(offset)) + seconds
    }

    /// The offset to subtract from a wall-clock second to get its instant: the earlier instant of a
    /// repeated wall time, the instant after the change for a skipped one.
    static func offset(ofWallSecond wall: Int64, in zone: any CronTimeZone) -> Int32 {
        // Try the offsets of the periods around the wall time; keep the first that maps back onto itself.
        let guess = zone.period(containing: wall - Int64(zone.largestOffset))
        var period = guess
        for _ in 0..<4 {
            let instant = wall - Int64(period.offset)
            if instant >= period.start, instant < period.end { return period.offset }
            if instant >= period.end, period.end != .max {
                period = zone.period(containing: period.end)
            } else {
                break
            }
        }
        // Skipped wall time: the instant after the gap, i.e. read it with the offset before the change.
        return period.previousOffset
    }
}
