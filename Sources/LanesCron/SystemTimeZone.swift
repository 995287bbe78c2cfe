internal import Foundation
internal import Synchronization

/// A zone of the system's time-zone database (through Foundation's `TimeZone`). Its offset changes
/// between 1900 and 2500 are read once into a table, so a lookup is a binary search and never
/// touches Foundation; outside that range it asks Foundation directly.
public final class SystemTimeZone: CronTimeZone {
    public let identifier: String
    public let largestOffset: Int32
    private let zone: TimeZone
    /// Instants at which the offset changes, increasing.
    private let changes: [Int64]
    /// `offsets[i]` applies before `changes[i]` (and after `changes[i - 1]`); one more than `changes`.
    private let offsets: [Int32]
    /// No change from 1900 on (UTC, `Etc/GMT-8`): one period forever.
    private let neverChanges: Bool
    public let fixedOffset: Int32?
    /// `firstChangeInBucket[b]`: index of the first change at or after `tableStart + b << bucketShift`,
    /// so a lookup scans at most the few changes of one ~194-day bucket instead of searching.
    private let firstChangeInBucket: [Int32]
    private static let bucketShift: Int64 = 24

    private static let tableStart: Int64 = -2_208_988_800  // 1900-01-01T00:00:00Z
    private static let tableEnd: Int64 = 16_725_225_600  // 2500-01-01T00:00:00Z

    /// Nil when Foundation does not know the id.
    public init?(identifier: String) {
        guard let zone = TimeZone(identifier: identifier) else { return nil }
        self.identifier = identifier
        self.zone = zone
        var changes: [Int64] = []
        var offsets: [Int32] = [Int32(zone.secondsFromGMT(for: Date(timeIntervalSince1970: Double(Self.tableStart))))]
        var cursor = Date(timeIntervalSince1970: Double(Self.tableStart))
        while let change = zone.nextDaylightSavingTimeTransition(after: cursor), change.timeIntervalSince1970 < Double(Self.tableEnd) {
            let offset = Int32(zone.secondsFromGMT(for: change))
            if offset != offsets[offsets.count - 1] {
                changes.append(Int64(change.timeIntervalSince1970.rounded(.down)))
                offsets.append(offset)
            }
            cursor = change
        }
        self.changes = changes
        self.offsets = offsets
        largestOffset = offsets.max() ?? 0
        let bucketCount = Int((Self.tableEnd - Self.tableStart) >> Self.bucketShift) + 1
        var firstChangeInBucket: [Int32] = []
        firstChangeInBucket.reserveCapacity(bucketCount)
        var changeIndex = 0
        for bucket in 0..<bucketCount {
            let bucketStart = Self.tableStart + Int64(bucket) << Self.bucketShift
            while changeIndex < changes.count, changes[changeIndex] < bucketStart { changeIndex += 1 }
            firstChangeInBucket.append(Int32(changeIndex))
        }
        self.firstChangeInBucket = firstChangeInBucket
        neverChanges = changes.isEmpty
            && zone.nextDaylightSavingTimeTransition(after: Date(timeIntervalSince1970: Double(Self.tableEnd))) == nil
        fixedOffset = neverChanges ? offsets[0] : nil
    }


    public func period(containing epochSecond: Int64) -> UTCOffsetPeriod {
        if neverChanges {
            return UTCOffsetPeriod(start: .min, end: .max, offset: offsets[0], previousOffset: offsets[0])
        }
        guard epochSecond >= Self.tableStart, epochSecond < Self.tableEnd else { return periodFromFoundation(containing: epochSecond) }
        // Number of changes at or before `epochSecond`.
        var low = Int(firstChangeInBucket[Int((epochSecond - Self.tableStart) >> Self.bucketShift)])
        while low < changes.count, changes[low] <= epochSecond { low += 1 }
        let start = low > 0 ? changes[low - 1] : Self.tableStart
        let end = low < changes.count ? changes[low] : Self.tableEnd
        return UTCOffsetPeriod(start: start, end: end, offset: offsets[low], previousOffset: offsets[low > 0 ? low - 1 : 0])
    }

    /// Before 1900 or from 2500 on: ask Foundation. A change more than 400 days back cannot matter
    /// to a search starting here, so the period then simply starts 400 days back.
    private func periodFromFoundation(containing epochSecond: Int64) -> UTCOffsetPeriod {
        let instant = Date(timeIntervalSince1970: Double(epochSecond))
        let offset = Int32(zone.secondsFromGMT(for: instant))
        let end = zone.nextDaylightSavingTimeTransition(after: instant).map { Int64($0.timeIntervalSince1970.rounded(.down)) } ?? .max
        let lookBack = epochSecond - 400 * 86_400
        var start = lookBack
        var previousOffset = offset
        var cursor = Date(timeIntervalSince1970: Double(lookBack))
        while let change = zone.nextDaylightSavingTimeTransition(after: cursor), change <= instant {
            start = Int64(change.timeIntervalSince1970.rounded(.down))
            previousOffset = Int32(zone.secondsFromGMT(for: change.addingTimeInterval(-1)))
            cursor = change
        }
        return UTCOffsetPeriod(start: start, end: end, offset: offset, previousOffset: previousOffset)
    }
}

/// Resolves ids through Foundation, building each zone's table once and sharing it afterwards.
public final class SystemTimeZoneResolver: CronTimeZoneResolver {
    private let cache = Mutex<[String: SystemTimeZone]>([:])

    public init() {}

    public func timeZone(identifier: String) -> (any CronTimeZone)? {
        if let cached = cache.withLock({ $0[identifier] }) { return cached }
        guard let zone = SystemTimeZone(identifier: identifier) else { return nil }
        cache.withLock { $0[identifier] = zone }
        return zone
    }
}
