/// A day of the proleptic Gregorian calendar: the one conversion between year-month-day and days
/// since 1970-01-01 that lanes has (cron's fire times, git's and the events' timestamps, AWS
/// expirations), after Howard Hinnant's `days_from_civil` / `civil_from_days`, without Foundation's
/// `Calendar` and without the C library's time zone state. Inlinable: cron's search calls it in its
/// hot loop.
@frozen
public struct CivilDate: Sendable, Hashable, Comparable, CustomStringConvertible {
    public var year: Int64
    /// 1 to 12.
    public var month: Int
    /// 1 to 31.
    public var day: Int

    @inlinable
    public init(year: Int64, month: Int, day: Int) {
        self.year = year
        self.month = month
        self.day = day
    }

    /// The date of a day number (days since 1970-01-01).
    @inlinable
    public init(dayNumber: Int64) {
        let date = Self.date(dayNumber: dayNumber)
        self.init(year: date.year, month: date.month, day: date.day)
    }

    /// Days since 1970-01-01 (negative before).
    @inlinable
    public var dayNumber: Int64 { Self.dayNumber(year: year, month: month, day: day) }

    /// 0 = Sunday … 6 = Saturday.
    @inlinable
    public var weekday: Int { Self.weekday(dayNumber: dayNumber) }

    /// Whether the fields name a real day (the month exists and has that many days).
    @inlinable
    public var isValid: Bool { (1...12).contains(month) && day >= 1 && day <= Self.daysInMonth(year: year, month: month) }

    /// `2024-03-01` (at least four digits of year).
    public var description: String {
        let digits = String(abs(year))
        let yearText = (year < 0 ? "-" : "") + String(repeating: "0", count: max(0, 4 - digits.count)) + digits
        return yearText + "-" + Self.twoDigits(month) + "-" + Self.twoDigits(day)
    }

    public static func < (lhs: CivilDate, rhs: CivilDate) -> Bool { lhs.dayNumber < rhs.dayNumber }

    static func twoDigits(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }

    public static let secondsPerDay: Int64 = 86_400
    public static let minutesPerDay: Int64 = 1440

    /// Day number of `year-month-day` (Hinnant's `days_from_civil`).
    @inlinable @inline(__always)
    public static func dayNumber(year: Int64, month: Int, day: Int) -> Int64 {
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
    public static let fastDateLowerBound: Int64 = -12_699_422
    public static let fastDateUpperBound: Int64 = 1_000_000_000

    /// `(year, month, day)` of a day number, with Neri and Schneider's Euclidean affine functions
    /// (2022): multiplications and shifts instead of divisions, for the hot path.
    @inlinable @inline(__always)
    public static func date(dayNumber: Int64) -> (year: Int64, month: Int, day: Int) {
        guard dayNumber >= -12_699_422, dayNumber <= 1_000_000_000 else { return dateBySlowArithmetic(dayNumber: dayNumber) }
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

    /// Hinnant's `civil_from_days`, for day numbers outside the fast conversion's range.
    @inlinable
    public static func dateBySlowArithmetic(dayNumber: Int64) -> (year: Int64, month: Int, day: Int) {
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
    @inlinable @inline(__always)
    public static func weekday(dayNumber: Int64) -> Int {
        let shifted = (dayNumber + 4) % 7
        return Int(shifted < 0 ? shifted + 7 : shifted)
    }

    @inlinable @inline(__always)
    public static func isLeapYear(_ year: Int64) -> Bool {
        year % 4 == 0 && (year % 100 != 0 || year % 400 == 0)
    }

    @inlinable @inline(__always)
    public static func daysInMonth(year: Int64, month: Int) -> Int {
        switch month {
        case 2: isLeapYear(year) ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }

    /// Floor division (toward minus infinity), for second and minute counts before 1970.
    @inlinable @inline(__always)
    public static func floorDivide(_ value: Int64, _ divisor: Int64) -> Int64 {
        let quotient = value / divisor
        return (value % divisor != 0 && (value < 0) != (divisor < 0)) ? quotient - 1 : quotient
    }
}

/// An instant as UTC wall-clock fields: a date and the seconds into it.
@frozen
public struct CivilTime: Sendable, Hashable {
    public var date: CivilDate
    public var hour: Int
    public var minute: Int
    public var second: Int

    @inlinable
    public init(date: CivilDate, hour: Int, minute: Int, second: Int) {
        self.date = date
        self.hour = hour
        self.minute = minute
        self.second = second
    }

    /// The UTC fields of `secondsSince1970` shifted by `offsetSeconds` (a zone's offset from UTC).
    @inlinable
    public init(secondsSince1970: Int64, offsetSeconds: Int64 = 0) {
        let local = secondsSince1970 + offsetSeconds
        let days = CivilDate.floorDivide(local, CivilDate.secondsPerDay)
        let secondOfDay = Int(local - days * CivilDate.secondsPerDay)
        self.init(date: CivilDate(dayNumber: days), hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60, second: secondOfDay % 60)
    }

    /// Seconds since 1970-01-01T00:00:00 of these fields read as UTC.
    @inlinable
    public var secondsSince1970: Int64 {
        date.dayNumber * CivilDate.secondsPerDay + Int64(hour * 3600 + minute * 60 + second)
    }

    /// `2024-03-01T14:05:09` (no zone designator).
    public var iso8601: String {
        date.description + "T" + CivilDate.twoDigits(hour) + ":" + CivilDate.twoDigits(minute) + ":" + CivilDate.twoDigits(second)
    }
}
