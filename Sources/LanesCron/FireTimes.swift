internal import LanesPlatform

/// When schedules fire, per time zone, with lanes' daylight-saving policy:
/// - a wall time that does not exist (spring-forward gap) fires once, at the first instant after
///   the gap; a wall time that occurs twice (fall-back) fires once, at its first occurrence;
/// - a line whose hour field is every hour keeps Jenkins' behaviour instead: gap times never
///   fire, repeated times fire twice.
/// Times here are minute numbers: minutes since 1970-01-01 00:00 UTC (instants) or local (wall).
extension CronTable {
    /// The first instant at or after `start` (a minute number) at which this line fires in `zone`,
    /// or nil when it never fires.
    func nextFire(atOrAfter start: Int64, in zone: any CronTimeZone) -> Int64? {
        if let fixed = zone.fixedOffset {
            let offset = Self.minutes(fixed)
            return firstMatch(atOrAfter: start &+ offset).map { $0 &- offset }
        }
        return nextFire(atOrAfter: start, inChangingZone: zone)
    }

    private func nextFire(atOrAfter start: Int64, inChangingZone zone: any CronTimeZone) -> Int64? {
        guard canEverFire else { return nil }
        let keepsJenkinsBehaviour = coversEveryHour
        let largestOffset = Self.minutes(zone.largestOffset)
        var instant = start
        while true {
            let period = zone.period(containing: instant &* 60)
            let offset = Self.minutes(period.offset)
            let previousOffset = Self.minutes(period.previousOffset)
            let periodStart = period.start == .min ? Int64.min : Self.minutesRoundingUp(period.start)
            var earliestWallTime = instant + offset
            if !keepsJenkinsBehaviour, period.start != .min {
                if previousOffset > offset {
                    // Fall-back: wall times up to the old offset's end already fired before the change.
                    earliestWallTime = max(earliestWallTime, periodStart + previousOffset)
                } else if previousOffset < offset, instant == periodStart,
                          let skipped = firstMatch(atOrAfter: periodStart + previousOffset), skipped < periodStart + offset {
                    return periodStart  // a wall time in the spring-forward gap
                }
            }
            guard let wallTime = firstMatch(atOrAfter: earliestWallTime) else { return nil }
            if period.end == .max { return wallTime - offset }
            let periodEnd = Self.minutesRoundingUp(period.end)
            if wallTime < periodEnd + offset { return wallTime - offset }
            // Not in this period. Every later fire has a wall time >= `wallTime`, hence an instant
            // >= wallTime - largestOffset; but the repeated hour after a fall-back change must be
            // searched again when it keeps Jenkins' behaviour, so then step one period only.
            let next = keepsJenkinsBehaviour ? periodEnd : max(periodEnd, wallTime - largestOffset)
            instant = max(next, instant + 1)  // progress even if a zone reported an empty period
        }
    }

    @inline(__always)
    private static func minutes(_ seconds: Int32) -> Int64 {
        CivilDate.floorDivide(Int64(seconds), 60)
    }

    @inline(__always)
    private static func minutesRoundingUp(_ seconds: Int64) -> Int64 {
        -CivilDate.floorDivide(-seconds, 60)
    }
}

extension CronSchedule {
    /// The first fire time at or after `start` (rounded up to a whole minute), or nil when the
    /// schedule never fires. Lines use the `TZ=` zone if the text has one, else `defaultZone`.
    public func nextFire(onOrAfter start: CronInstant, defaultZone: any CronTimeZone) -> CronInstant? {
        nextFireMinute(atOrAfter: start.minuteRoundingUp, defaultZone: defaultZone).map(CronInstant.init(minuteNumber:))
    }

    /// The first fire time strictly after `instant` (for a daemon that just ran at `instant`).
    public func nextFire(after instant: CronInstant, defaultZone: any CronTimeZone) -> CronInstant? {
        let nextMinute = instant.minuteRoundingDown + 1
        return nextFireMinute(atOrAfter: nextMinute, defaultZone: defaultZone).map(CronInstant.init(minuteNumber:))
    }

    /// Up to `count` successive fire times from `start` (rounded up to a whole minute).
    public func fireTimes(onOrAfter start: CronInstant, defaultZone: any CronTimeZone, count: Int) -> [CronInstant] {
        var times: [CronInstant] = []
        var minute = start.minuteRoundingUp
        // Past the last supported minute (9999-12-31T23:59Z) instants clamp, and would repeat it.
        while times.count < count, minute <= CronInstant.lastSupportedMinute,
              let next = nextFireMinute(atOrAfter: minute, defaultZone: defaultZone), next <= CronInstant.lastSupportedMinute {
            times.append(CronInstant(minuteNumber: next))
            minute = next + 1
        }
        return times
    }

    /// Whether any line can ever fire (false for `0 0 31 2 *` or a text without schedule lines).
    public var canEverFire: Bool { entries.contains { $0.table.canEverFire } }

    func nextFireMinute(atOrAfter minute: Int64, defaultZone: any CronTimeZone) -> Int64? {
        // Two calls rather than `hasOwnZone ? ownZone : defaultZone`: that would copy an existential.
        if hasOwnZone { return nextFireMinute(atOrAfter: minute, in: ownZone) }
        return nextFireMinute(atOrAfter: minute, in: defaultZone)
    }

    private func nextFireMinute(atOrAfter minute: Int64, in zone: any CronTimeZone) -> Int64? {
        var earliest = Int64.max
        for table in tables {
            if let next = table.nextFire(atOrAfter: minute, in: zone), next < earliest { earliest = next }
        }
        return earliest == .max ? nil : earliest
    }
}
