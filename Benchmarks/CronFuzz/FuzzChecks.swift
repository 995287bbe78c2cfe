import Foundation
import LanesCron

/// Invariants every fuzz input must keep; a violation prints the input and exits 1.
enum FuzzChecks {
    static func fail(_ what: String, input: String) -> Never {
        FileHandle.standardError.write(Data("INVARIANT BROKEN: \(what)\ninput: \(input.debugDescription)\n".utf8))
        exit(1)
    }

    static func error(_ error: CronSyntaxError, input: String) {
        let message = error.message
        guard message.hasPrefix("Invalid input: \"") || message.hasPrefix("Invalid or unsupported timezone '") else {
            fail("unexpected error text \(message.debugDescription)", input: input)
        }
    }

    static func fireTimes(_ times: [CronInstant], of schedule: CronSchedule, from start: CronInstant, zone: any CronTimeZone, input: String) {
        var previous: CronInstant?
        for time in times {
            if time.secondsSince1970 + 60 <= start.secondsSince1970 { fail("fire time \(time) before start \(start)", input: input) }
            if let previous, time <= previous { fail("fire times not increasing: \(previous), \(time)", input: input) }
            previous = time
            // A fire time's wall clock matches some line, or it is the first instant after a
            // spring-forward gap (then the minute before it is in another offset period).
            let second = Int64(time.secondsSince1970)
            let period = zone.period(containing: second)
            let wall = CivilMinuteFields(epochSecond: second + Int64(period.offset))
            let matches = schedule.entries.contains { $0.table.matches(wall.civil) }
            let afterGap = period.start == second && period.previousOffset < period.offset
            if !matches, !afterGap { fail("fire time \(time) matches no line", input: input) }
        }
    }
}

/// Wall-clock fields of an epoch second already shifted to local time.
struct CivilMinuteFields {
    let civil: CivilMinute

    init(epochSecond: Int64) {
        let days = Int64((Double(epochSecond) / 86_400).rounded(.down))
        let secondOfDay = Int(epochSecond - days * 86_400)
        // 1970-01-01 + days, via the proleptic Gregorian calendar of Foundation in UTC.
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let date = Date(timeIntervalSince1970: Double(days * 86_400))
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        civil = CivilMinute(year: Int64(parts.year!), month: parts.month!, day: parts.day!, hour: secondOfDay / 3600, minute: secondOfDay / 60 % 60)
    }
}
