internal import LanesPlatform

/// The resolved values of one schedule line: one bit set per field (bit n = value n), `H` already
/// replaced by the values Jenkins picks. Day-of-week uses 0–6 with Sunday = 0 (a `7` has become 0).
/// A minute fires when all five fields match — day-of-month AND day-of-week, as in Jenkins.
public struct CronTable: Sendable, Hashable {
    public let minutes: UInt64
    public let hours: UInt64
    public let daysOfMonth: UInt64
    public let months: UInt64
    public let daysOfWeek: UInt64

    /// Bit j set when weekday `j % 7` is allowed, for j in 0..<64: shifting it lines weekdays up with
    /// the days of any month.
    let weekdayRun: UInt64
    let firstMinute: Int64
    let firstHour: Int64
    /// Whether some date can ever match (false for `0 0 31 2 *`).
    public let canEverFire: Bool
    /// Whether every hour of the day is in the hour field. Such lines keep Jenkins' behaviour at
    /// daylight-saving changes (skip the missing hour, run twice in the repeated one).
    public let coversEveryHour: Bool

    /// Builds a table from bit masks; bits outside each field's bounds are ignored.
    public init(minutes: UInt64, hours: UInt64, daysOfMonth: UInt64, months: UInt64, daysOfWeek: UInt64) {
        self.minutes = minutes & Self.mask(.minute)
        self.hours = hours & Self.mask(.hour)
        self.daysOfMonth = daysOfMonth & Self.mask(.dayOfMonth)
        self.months = months & Self.mask(.month)
        self.daysOfWeek = daysOfWeek & 0x7F
        var run: UInt64 = 0
        for bit in 0..<64 where self.daysOfWeek & (1 << UInt64(bit % 7)) != 0 { run |= 1 << UInt64(bit) }
        weekdayRun = run
        firstMinute = Int64(self.minutes.trailingZeroBitCount)
        firstHour = Int64(self.hours.trailingZeroBitCount)
        coversEveryHour = self.hours == Self.mask(.hour)
        canEverFire = self.minutes != 0 && self.hours != 0
            && Self.someDateMatches(daysOfMonth: self.daysOfMonth, months: self.months, weekdayRun: run)
    }

    /// Builds a table from value lists (day-of-week 7 counts as Sunday).
    public init(minutes: [Int], hours: [Int], daysOfMonth: [Int], months: [Int], daysOfWeek: [Int]) {
        func bits(_ values: [Int]) -> UInt64 { values.reduce(0) { $0 | (1 << UInt64($1 & 63)) } }
        let weekdays = daysOfWeek.map { $0 == 7 ? 0 : $0 }
        self.init(minutes: bits(minutes), hours: bits(hours), daysOfMonth: bits(daysOfMonth), months: bits(months), daysOfWeek: bits(weekdays))
    }

    private static func mask(_ field: CronField) -> UInt64 {
        let bounds = field == .dayOfWeek ? 0...6 : field.bounds
        return (bounds.upperBound == 63 ? ~0 : (1 << UInt64(bounds.upperBound + 1)) - 1) & ~((1 << UInt64(bounds.lowerBound)) - 1)
    }

    public func bits(of field: CronField) -> UInt64 {
        switch field {
        case .minute: minutes
        case .hour: hours
        case .dayOfMonth: daysOfMonth
        case .month: months
        case .dayOfWeek: daysOfWeek
        }
    }

    /// The values of a field in increasing order (day-of-week 0–6).
    public func values(of field: CronField) -> [Int] {
        let mask = bits(of: field)
        return (0..<64).filter { mask & (1 << UInt64($0)) != 0 }
    }


    /// Whether the wall-clock minute matches all five fields.
    public func matches(_ time: CivilMinute) -> Bool {
        minutes & (1 << UInt64(time.minute)) != 0 && hours & (1 << UInt64(time.hour)) != 0
            && daysOfMonth & (1 << UInt64(time.day)) != 0 && months & (1 << UInt64(time.month)) != 0
            && daysOfWeek & (1 << UInt64(time.weekday)) != 0
    }

    /// Every month starts on every weekday somewhere in the 400-year Gregorian cycle, and February
    /// has both lengths, so checking those shapes decides whether any date matches.
    private static func someDateMatches(daysOfMonth: UInt64, months: UInt64, weekdayRun: UInt64) -> Bool {
        for month in 1...12 where months & (1 << UInt64(month)) != 0 {
            let lengths = month == 2 ? [28, 29] : [CivilDate.daysInMonth(year: 2001, month: month)]
            for length in lengths {
                for firstWeekday in 0..<7
                where dayMask(daysOfMonth: daysOfMonth, weekdayRun: weekdayRun, firstWeekday: firstWeekday, length: length) != 0 {
                    return true
                }
            }
        }
        return false
    }

    /// Days (bit d = day d) of a month starting on `firstWeekday` with `length` days that match
    /// both day-of-month and day-of-week.
    @inline(__always)
    func dayMask(firstWeekday: Int, length: Int) -> UInt64 {
        Self.dayMask(daysOfMonth: daysOfMonth, weekdayRun: weekdayRun, firstWeekday: firstWeekday, length: length)
    }

    @inline(__always)
    private static func dayMask(daysOfMonth: UInt64, weekdayRun: UInt64, firstWeekday: Int, length: Int) -> UInt64 {
        daysOfMonth & ((weekdayRun >> UInt64(firstWeekday)) << 1) & ((1 << UInt64(length + 1)) - 2)
    }
}
