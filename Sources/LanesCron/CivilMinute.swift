internal import LanesPlatform

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
        let days = CivilDate.floorDivide(minuteNumber, CivilDate.minutesPerDay)
        let minuteOfDay = Int(minuteNumber - days * CivilDate.minutesPerDay)
        let date = CivilDate.date(dayNumber: days)
        self.init(year: date.year, month: date.month, day: date.day, hour: minuteOfDay / 60, minute: minuteOfDay % 60)
    }

    /// Wall-clock minutes since 1970-01-01 00:00.
    var minuteNumber: Int64 {
        CivilDate.dayNumber(year: year, month: month, day: day) * CivilDate.minutesPerDay + Int64(hour * 60 + minute)
    }

    /// 0 = Sunday … 6 = Saturday.
    public var weekday: Int { CivilDate.weekday(dayNumber: CivilDate.dayNumber(year: year, month: month, day: day)) }

    public var description: String {
        func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(year)-\(pad(month))-\(pad(day)) \(pad(hour)):\(pad(minute))"
    }
}
