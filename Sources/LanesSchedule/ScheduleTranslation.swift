public import LanesCron

/// Resolved schedule lines in other schedulers' notations.
public enum ScheduleTranslation {
    /// A line that has no exact equivalent in the target notation.
    public struct Untranslatable: Error, CustomStringConvertible, Sendable {
        public let description: String
    }

    /// systemd `OnCalendar=` values for each line of `schedule`, in `zone` (an IANA id systemd reads
    /// from the system's zone database): `Mon..Thu,Sun *-*-* 00:30:00 Asia/Taipei`. Like Jenkins, systemd
    /// requires the weekday and the date to match together.
    public static func systemdCalendar(_ schedule: CronSchedule, zone: String) -> [String] {
        schedule.entries.map { entry in
            let table = entry.table
            // systemd weeks start on Monday: ranges must run Mon..Sun (`Mon..Thu,Sun`, never `Sun..Thu`).
            let weekdays = table.values(of: .dayOfWeek).map { ($0 + 6) % 7 }.sorted()
            let names = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"]
            var parts: [String] = []
            if weekdays.count < 7 { parts.append(runs(weekdays).map { run in run.count >= 3 ? "\(names[run.first!])..\(names[run.last!])" : run.map { names[$0] }.joined(separator: ",") }.joined(separator: ",")) }
            parts.append("*-\(systemdList(table.values(of: .month), full: 12))-\(systemdList(table.values(of: .dayOfMonth), full: 31))")
            parts.append("\(systemdList(table.values(of: .hour), full: 24, width: 2)):\(systemdList(table.values(of: .minute), full: 60, width: 2)):00")
            parts.append(zone)
            return parts.joined(separator: " ")
        }
    }

    /// Cron lines in UTC for a zone whose offset is `offsetSeconds` east of UTC (GitHub Actions runs
    /// schedules in UTC). Lines whose day-of-month or month is restricted cannot move across
    /// midnight exactly and throw when the offset would move them.
    public static func utcCronLines(_ schedule: CronSchedule, offsetSeconds: Int32) throws(Untranslatable) -> [String] {
        guard offsetSeconds % 60 == 0 else { throw Untranslatable(description: "the zone's offset is not a whole minute") }
        let offset = Int(offsetSeconds / 60)
        var lines: [String] = []
        for entry in schedule.entries {
            let table = entry.table
            let days = table.values(of: .dayOfMonth), months = table.values(of: .month)
            // (weekday, minute of day) in UTC for every local firing time of the week.
            var utc: [Int: Set<Int>] = [:]  // minute of day -> weekdays
            var crossesMidnight = false
            for weekday in table.values(of: .dayOfWeek) {
                for hour in table.values(of: .hour) {
                    for minute in table.values(of: .minute) {
                        let local = weekday * 1440 + hour * 60 + minute
                        let shifted = ((local - offset) % 10080 + 10080) % 10080
                        if shifted / 1440 != weekday { crossesMidnight = true }
                        utc[shifted % 1440, default: []].insert(shifted / 1440)
                    }
                }
            }
            if crossesMidnight, days.count < 31 || months.count < 12 {
                throw Untranslatable(description: "\"\(entry.line)\" restricts day-of-month or month, and the UTC offset moves some runs to another day")
            }
            // Group minutes of day by their weekday set, then by hour set.
            var byWeekdays: [[Int]: [Int: Set<Int>]] = [:]  // weekdays -> minute -> hours
            for (minuteOfDay, weekdays) in utc {
                byWeekdays[weekdays.sorted(), default: [:]][minuteOfDay % 60, default: []].insert(minuteOfDay / 60)
            }
            for weekdays in byWeekdays.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                var byHours: [[Int]: [Int]] = [:]
                for (minute, hours) in byWeekdays[weekdays]! { byHours[hours.sorted(), default: []].append(minute) }
                for hours in byHours.keys.sorted(by: { $0.lexicographicallyPrecedes($1) }) {
                    let minutes = byHours[hours]!.sorted()
                    lines.append([CronDescription.compactValues(minutes, field: .minute), CronDescription.compactValues(hours, field: .hour),
                                  CronDescription.compactValues(days, field: .dayOfMonth), CronDescription.compactValues(months, field: .month),
                                  CronDescription.compactValues(weekdays, field: .dayOfWeek)].joined(separator: " "))
                }
            }
        }
        return lines
    }

    /// launchd `StartCalendarInterval` dictionaries for `schedule`, read in the zone its fields are
    /// in: one dictionary per combination of the restricted fields (launchd has no ranges or steps; a
    /// missing key is a wildcard), keys in launchd's names (`Minute`, `Hour`, `Day`, `Month`, and
    /// `Weekday` with 0 for Sunday). launchd fires when either the day or the weekday matches, as
    /// Vixie cron does, where Jenkins needs both: a line that restricts both cannot be expressed.
    public static func launchdCalendar(_ schedule: CronSchedule) throws(Untranslatable) -> [[(key: String, value: Int)]] {
        var dictionaries: [[(key: String, value: Int)]] = []
        for entry in schedule.entries {
            let table = entry.table
            let fields: [(key: String, field: CronField, full: Int)] = [
                ("Month", .month, 12), ("Day", .dayOfMonth, 31), ("Weekday", .dayOfWeek, 7), ("Hour", .hour, 24), ("Minute", .minute, 60),
            ]
            let restricted = fields.filter { table.values(of: $0.field).count < $0.full }
            if restricted.contains(where: { $0.key == "Day" }), restricted.contains(where: { $0.key == "Weekday" }) {
                throw Untranslatable(description: "\"\(entry.line)\" restricts both the day of the month and the weekday: "
                    + "launchd would fire when either matches, Jenkins only when both do")
            }
            var combinations: [[(key: String, value: Int)]] = [[]]
            for field in restricted {
                let values = table.values(of: field.field)
                combinations = combinations.flatMap { prefix in values.map { prefix + [(field.key, $0)] } }
            }
            dictionaries += combinations
        }
        return dictionaries
    }

    /// Lists in systemd's notation: `*`, `0..4`, `07,22,37,52`.
    static func systemdList(_ values: [Int], full: Int, width: Int = 1) -> String {
        if values.count == full { return "*" }
        func pad(_ value: Int) -> String { let text = String(value); return String(repeating: "0", count: max(0, width - text.count)) + text }
        return runs(values).map { run in run.count >= 3 ? "\(pad(run.first!))..\(pad(run.last!))" : run.map(pad).joined(separator: ",") }
            .joined(separator: ",")
    }

    static func runs(_ values: [Int]) -> [[Int]] {
        var runs: [[Int]] = []
        for value in values {
            if let last = runs.last?.last, last + 1 == value { runs[runs.count - 1].append(value) } else { runs.append([value]) }
        }
        return runs
    }
}
