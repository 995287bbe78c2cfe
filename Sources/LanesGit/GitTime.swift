/// A commit or tag time as git records it: seconds since 1970 (UTC) and the author's UTC offset.
public struct GitTime: Sendable, Hashable, Codable, Comparable, CustomStringConvertible {
    public let secondsSince1970: Int64
    /// The author's time zone, in minutes east of UTC.
    public let offsetMinutes: Int

    public init(secondsSince1970: Int64, offsetMinutes: Int) {
        self.secondsSince1970 = secondsSince1970
        self.offsetMinutes = offsetMinutes
    }

    public static func < (lhs: GitTime, rhs: GitTime) -> Bool { lhs.secondsSince1970 < rhs.secondsSince1970 }

    /// The author's local date, `2024-03-01`, as `git log --date=short` prints it.
    public var shortDate: String { String(iso8601.prefix(10)) }

    /// Strict ISO 8601 in the author's zone, `2024-03-01T14:05:09+01:00` (`git log --format=%aI`).
    public var iso8601: String {
        let local = secondsSince1970 + Int64(offsetMinutes) * 60
        let days = local >= 0 ? local / 86_400 : (local - 86_399) / 86_400
        let secondsOfDay = Int(local - days * 86_400)
        let (year, month, day) = Self.civilDate(daysSince1970: days)
        let sign = offsetMinutes < 0 ? "-" : "+"
        let offset = abs(offsetMinutes)
        return "\(Self.pad(year, 4))-\(Self.pad(month))-\(Self.pad(day))T"
            + "\(Self.pad(secondsOfDay / 3600)):\(Self.pad(secondsOfDay / 60 % 60)):\(Self.pad(secondsOfDay % 60))"
            + "\(sign)\(Self.pad(offset / 60)):\(Self.pad(offset % 60))"
    }

    public var description: String { iso8601 }

    /// Year, month and day of a day count in the proleptic Gregorian calendar (Howard Hinnant's
    /// days-to-civil algorithm).
    private static func civilDate(daysSince1970: Int64) -> (Int, Int, Int) {
        let z = daysSince1970 + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (Int(year), Int(month), Int(day))
    }

    private static func pad(_ value: Int, _ width: Int = 2) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, width - digits.count)) + digits
    }
}
