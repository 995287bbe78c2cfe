internal import LanesPlatform

/// Finding the first matching wall-clock minute with bit arithmetic on a broken-down date: at most
/// one step per field on the current day, then month by month — never minute by minute.
extension CronTable {
    /// Lowest set bit of `mask` at or above `from` (0…63), or -1.
    @inline(__always)
    private static func nextBit(_ mask: UInt64, from: Int64) -> Int64 {
        guard from < 64 else { return -1 }
        let shifted = mask >> UInt64(from)
        return shifted == 0 ? -1 : from &+ Int64(shifted.trailingZeroBitCount)
    }

    @inline(__always)
    private static func has(_ mask: UInt64, _ bit: Int) -> Bool { (mask >> UInt64(bit)) & 1 != 0 }

    /// The first wall-clock minute number (minutes since 1970-01-01 00:00 local) at or after
    /// `start` that matches, or nil when none exists (checked up front with `canEverFire`).
    @inline(__always)
    func firstMatch(atOrAfter start: Int64) -> Int64? {
        guard canEverFire else { return nil }
        let minutesPerDay = CivilDate.minutesPerDay
        let dayNumber = CivilDate.floorDivide(start, minutesPerDay)
        let minuteOfDay = start &- dayNumber &* minutesPerDay
        let hour = minuteOfDay / 60
        let minute = minuteOfDay &- hour &* 60
        let date = CivilDate.date(dayNumber: dayNumber)
        let weekday = CivilDate.weekday(dayNumber: dayNumber)

        if Self.has(months, date.month) {
            // Today, if the day matches: the next hour and minute.
            if Self.has(daysOfMonth, date.day), Self.has(daysOfWeek, weekday) {
                if Self.has(hours, Int(hour)) {
                    let nextMinute = Self.nextBit(minutes, from: minute)
                    if nextMinute >= 0 { return dayNumber &* minutesPerDay &+ hour &* 60 &+ nextMinute }
                }
                let nextHour = Self.nextBit(hours, from: hour &+ 1)
                if nextHour >= 0 { return dayNumber &* minutesPerDay &+ nextHour &* 60 &+ firstMinute }
            }
            // A later day of this month.
            let firstWeekday = (weekday &+ 36 &- date.day) % 7
            let days = dayMask(firstWeekday: firstWeekday, length: CivilDate.daysInMonth(year: date.year, month: date.month))
            let nextDay = Self.nextBit(days, from: Int64(date.day) &+ 1)
            if nextDay >= 0 {
                return (dayNumber &+ nextDay &- Int64(date.day)) &* minutesPerDay &+ firstHour &* 60 &+ firstMinute
            }
        }
        return firstMatchInLaterMonths(year: date.year, month: date.month)
    }

    /// The first matching minute in the months after `year-month`. 401 years bound the search
    /// because the calendar repeats every 400 years and `canEverFire` holds.
    private func firstMatchInLaterMonths(year startYear: Int64, month startMonth: Int) -> Int64? {
        var year = startYear
        var month = startMonth
        while year <= startYear + 401 {
            let nextMonth = Self.nextBit(months, from: Int64(month) + 1)
            if nextMonth >= 0 {
                month = Int(nextMonth)
            } else {
                year += 1
                month = months.trailingZeroBitCount
            }
            let first = CivilDate.dayNumber(year: year, month: month, day: 1)
            let days = dayMask(firstWeekday: CivilDate.weekday(dayNumber: first), length: CivilDate.daysInMonth(year: year, month: month))
            if days != 0 {
                return (first + Int64(days.trailingZeroBitCount) - 1) * CivilDate.minutesPerDay + firstHour * 60 + firstMinute
            }
        }
        return nil
    }
}
