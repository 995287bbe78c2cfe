/// Proleptic Gregorian date arithmetic on day numbers (days since 1970-01-01), after Howard
/// Hinnant's `days_from_civil` / `civil_from_days` algorithms. No Foundation `Calendar` in the hot path.
enum CivilCalendar {
    static let minutesPerDay: Int64 = 1440

    /// Day number of `year-month-day`.
    @inline(__always)
    static func dayNumber(year: Int64, month: Int, day: Int) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let shiftedMonth = Int64(month > 2 ? month - 3 : month + 9)
        let dayOfYear = (153 * shiftedMonth + 2) / 5 + Int64(day) - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Day numbers the fast conversion covers (about years -32,800 to 2,900,000): unsigned 32-bit
    /// arithmetic suffices there.
    static let fastDateLowerBound: Int64 = -12_699_422
    static let fastDateUpperBound: Int64 = 1_000_000_000

    /// `(year, month, day)` of a day number, with Neri and Schneider's Euclidean affine functions
    /// (2022): multiplications and shifts instead of divisions, for the hot path.
    @inline(__always)
    static func date(dayNumber: Int64) -> (year: Int64, month: Int, day: Int) {
        guard dayNumber >= fastDateLowerBound, dayNumber <= fastDateUpperBound else { return dateBySlowArithmetic(dayNumber: dayNumber) }
        // Shift so that day 0 is 0000-03-01 of a year 400 * 82 years before year 0: everything stays unsigned.
        let shifted = UInt32(truncatingIfNeeded: dayNumber &+ 719_468 &+ 146_097 &* 82)
        let centuryNumerator = 4 &* shifted &+ 3
        let century = centuryNumerator / 146_097
        let dayOfCentury = centuryNumerator % 146_097 / 4
        let yearNumerator = UInt64(4 &* dayOfCentury &+ 3) &* 2_939_745
        let yearOfCentury = UInt32(truncatingIfNeeded: yearNumerator >> 32)
        let dayOfYear = UInt32(truncatingIfNeeded: yearNumerator) / 2_939_745 / 4
        let monthNumerator = 2141 &* dayOfYear &+ 197_913
        let shiftedMonth = monthNumerator >> 16
        let day = (monthNumerator & 0xFFFF) / 2141 + 1
        let isJanuaryOrFebruary = dayOfYear >= 306
        let year = Int64(100 &* century &+ yearOfCentury) - 400 * 82 + (isJanuaryOrFebruary ? 1 : 0)
        return (year, Int(isJanuaryOrFebruary ? shiftedMonth - 12 : shiftedMonth), Int(day))
    }

    /// Howard Hinnant's `civil_from_days`, for day numbers outside the fast conversion's range.
    static func dateBySlowArithmetic(dayNumber: Int64) -> (year: Int64, month: Int, day: Int) {
        let z = dayNumber + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let shiftedMonth = (5 * dayOfYear + 2) / 153
        let day = Int(dayOfYear - (153 * shiftedMonth + 2) / 5 + 1)
        let month = Int(shiftedMonth < 10 ? shiftedMonth + 3 : shiftedMonth - 9)
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    /// 0 = Sunday … 6 = Saturday (1970-01-01 was a Thursday).
    @inline(__always)
    static func weekday(dayNumber: Int64) -> Int {
        let shifted = (dayNumber + 4) % 7
        return Int(shifted < 0 ? shifted + 7 : shifted)
    }

    @inline(__always)
    static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    @inline(__always)
    static func daysInMonth(year: Int64, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Floor division, for minute counts before 1970.
    @inline(__always)
    static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

/// A wall-clock minute, broken down.
public struct CivilMinute: Sendable, Hashable, CustomStringConvertible {
    public var year: Int64
    public var month: Int
    public var day: Int
    public var hour: Int
    public var minute: Int

    public init(year: Int64, month: Int, day: Int, hour: Int, minute: Int) {
        self.year = year
        self.month = month
        self.day = day
        self.hour = hour
        self.minute = minute
    }

    /// From a count of wall-clock minutes since 1970-01-01 00:00.
    init(minuteNumber: Int64) {
        let days = CivilCalendar.floorDivide(minuteNumber, CivilCalendar.minutesPerDay)
        let minuteOfDay = Int(minuteNumber - days * CivilCalendar.minutesPerDay)
        let date = CivilCalendar.date(dayNumber: days)
        self.init(year: date.year, month: date.month, day: date.day, hour: minuteOfDay / 60, minute: minuteOfDay % 60)
    }

    /// Wall-clock minutes since 1970-01-01 00:00.
    var minuteNumber: Int64 {
        CivilCalendar.dayNumber(year: year, month: month, day: day) * CivilCalendar.minutesPerDay + Int64(hour * 60 + minute)
    }

    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int { CivilCalendar.weekday(dayNumber: CivilCalendar.dayNumber(year: year, month: month, day: day)) }

    public var description: String {
        func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(pad(month))-\(pad(day)) \(pad(hour)):\(pad(minute))"
    }
}
