internal import LanesPlatform

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
        let local = CivilTime(secondsSince1970: secondsSince1970, offsetSeconds: Int64(offsetMinutes) * 60)
        let sign = offsetMinutes < 0 ? "-" : "+"
        let offset = abs(offsetMinutes)
        return local.iso8601 + "\(sign)\(Self.pad(offset / 60)):\(Self.pad(offset % 60))"
    }

    public var description: String { iso8601 }

    private static func pad(_ value: Int) -> String {
        let digits = String(value)
        return String(repeating: "0", count: max(0, 2 - digits.count)) + digits
    }
}
