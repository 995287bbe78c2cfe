internal import LanesPlatform

/// A wall-clock instant, formatted without Foundation (which costs start-up time).
public struct Timestamp: Sendable, Hashable {
    public let secondsSinceEpoch: Int
    public let nanoseconds: Int

    public init(secondsSinceEpoch: Int, nanoseconds: Int = 0) {
        self.secondsSinceEpoch = secondsSinceEpoch
        self.nanoseconds = nanoseconds
    }

    public static func now() -> Timestamp {
        var spec = timespec()
        clock_gettime(CLOCK_REALTIME, &spec)
        return Timestamp(secondsSinceEpoch: spec.tv_sec, nanoseconds: spec.tv_nsec)
    }

    /// `HH:MM:SS` in the local time zone, for banners.
    public var localClockTime: String {
        var seconds = time_t(secondsSinceEpoch)
        var parts = tm()
        localtime_r(&seconds, &parts)
        return "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))"
    }

    /// `2026-11-21T20:43:56.123Z`, for JSON and JUnit.
    public var iso8601: String {
        var seconds = time_t(secondsSinceEpoch)
        var parts = tm()
        gmtime_r(&seconds, &parts)
        let millis = String(nanoseconds / 1_000_000)
        return "\(parts.tm_year + 1900)-\(pad(parts.tm_mon + 1))-\(pad(parts.tm_mday))T"
            + "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))."
            + String(repeating: "0", count: 3 - millis.count) + millis + "Z"
    }

    private func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
