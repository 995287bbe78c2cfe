public import LanesWire
internal import LanesPlatform

/// A wall-clock instant, as events carry it (`LanesWire.Timestamp`).
public typealias Timestamp = LanesWire.Timestamp

extension Timestamp {
    /// `HH:MM:SS` in the local time zone, for banners.
    public var localClockTime: String {
        var seconds = time_t(secondsSinceEpoch)
        var parts = tm()
        localtime_r(&seconds, &parts)
        func pad(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(pad(parts.tm_hour)):\(pad(parts.tm_min)):\(pad(parts.tm_sec))"
    }
}
