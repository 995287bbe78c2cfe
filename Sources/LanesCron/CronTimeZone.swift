/// A span of time during which a zone keeps one UTC offset. Times are seconds since 1970-01-01 UTC.
/// Frozen: it is returned on every fire-time computation, across module boundaries.
@frozen
public struct UTCOffsetPeriod: Sendable, Hashable {
    /// First second of the period (`Int64.min`: unbounded).
    public var start: Int64
    /// First second after the period (`Int64.max`: unbounded).
    public var end: Int64
    /// Seconds east of UTC during the period.
    public var offset: Int32
    /// The offset just before `start`; equal to `offset` when nothing changed there.
    public var previousOffset: Int32

    public init(start: Int64, end: Int64, offset: Int32, previousOffset: Int32) {
        self.start = start
        self.end = end
        self.offset = offset
        self.previousOffset = previousOffset
    }
}

/// The offset rules of a time zone, as fire-time computation needs them: which offset applies at an
/// instant and where it changes. Implementations must be cheap to query (called on every
/// computation) and immutable.
public protocol CronTimeZone: Sendable {
    /// The zone's name, e.g. `America/New_York`.
    var identifier: String { get }
    /// The period with one offset that contains `epochSecond`.
    func period(containing epochSecond: Int64) -> UTCOffsetPeriod
    /// The largest offset the zone ever uses (seconds east of UTC); lets a search skip ahead safely.
    var largestOffset: Int32 { get }
    /// The offset when it never changes (UTC, `Etc/GMT-8`): lets fire-time computation skip period lookups.
    var fixedOffset: Int32? { get }
}

extension CronTimeZone {
    public var fixedOffset: Int32? { nil }
}

/// A zone with one offset forever (UTC, `Etc/GMT-8`, or a test's fixed offset).
public struct FixedOffsetTimeZone: CronTimeZone, Hashable {
    public let identifier: String
    public let offset: Int32

    public init(identifier: String, offset: Int32) {
        self.identifier = identifier
        self.offset = offset
    }

    public static let utc = FixedOffsetTimeZone(identifier: "UTC", offset: 0)

    public func period(containing epochSecond: Int64) -> UTCOffsetPeriod {
        UTCOffsetPeriod(start: .min, end: .max, offset: offset, previousOffset: offset)
    }

    public var largestOffset: Int32 { offset }

    public var fixedOffset: Int32? { offset }
}

/// Turns a `TZ=` id into zone rules. The daemon can share one caching resolver across schedules.
public protocol CronTimeZoneResolver: Sendable {
    /// The rules for a Jenkins/Java time-zone id, or nil when this system does not know it.
    func timeZone(identifier: String) -> (any CronTimeZone)?
}
