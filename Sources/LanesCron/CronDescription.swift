/// Plain-English renderings of resolved schedule lines, e.g. "at 00:01 on Sunday through Thursday".
public enum CronDescription {
    static let weekdayNames = ["Sunday", "Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday"]
    static let monthNames = ["", "January", "February", "March", "April", "May", "June", "July", "August",
                             "September", "October", "November", "December"]

    /// One sentence for one line's table.
    public static func sentence(for table: CronTable) -> String {
        guard table.canEverFire else { return "never: no calendar date matches its day-of-month, month and day-of-week together" }
        var parts = [timeOfDay(table)]
        let allDays = table.daysOfMonth == CronTable(minutes: [], hours: [], daysOfMonth: Array(1...31), months: [], daysOfWeek: []).daysOfMonth
        let allWeekdays = table.daysOfWeek == 0x7F
        let days = table.values(of: .dayOfMonth)
        let weekdays = list(table.values(of: .dayOfWeek)) { weekdayNames[$0] }
        switch (allDays, allWeekdays) {
        case (true, true): break
        case (true, false): parts.append("on \(weekdays)")
        case (false, true): parts.append("on day-of-month \(list(days) { String($0) })")
        case (false, false): parts.append("on day-of-month \(list(days) { String($0) }) when it falls on \(weekdays)")
        }
        let months = table.values(of: .month)
        if months.count < 12 { parts.append("in \(list(months) { monthNames[$0] })") }
        return parts.joined(separator: " ")
    }

    /// Compact value notation for a field: `0-4`, `1,16,31,46`, `*`.
    public static func compactValues(_ values: [Int], field: CronField) -> String {
        let full = field == .dayOfWeek ? Array(0...6) : Array(field.bounds)
        if values == full { return "*" }
        return runs(values).map { $0.count >= 3 ? "\($0.first!)-\($0.last!)" : $0.map(String.init).joined(separator: ",") }
            .joined(separator: ",")
    }

    private static func timeOfDay(_ table: CronTable) -> String {
        let minutes = table.values(of: .minute)
        let hours = table.values(of: .hour)
        let everyHour = hours.count == 24
        if minutes.count == 60 {
            return everyHour ? "every minute" : "every minute of \(plural("hour", hours.count)) \(list(hours) { String($0) })"
        }
        if let step = progressionStep(minutes, upperBound: 59) {
            let every = "every \(step) minutes" + (minutes[0] == 0 ? "" : " from minute \(minutes[0])")
            return everyHour ? every : "\(every) during \(plural("hour", hours.count)) \(list(hours) { String($0) })"
        }
        if everyHour {
            return "at \(plural("minute", minutes.count)) \(list(minutes) { String($0) }) past every hour"
        }
        if minutes.count * hours.count <= 6 {
            let times = hours.flatMap { hour in minutes.map { "\(pad(hour)):\(pad($0))" } }
            return "at " + joinedList(times)
        }
        return "at \(plural("minute", minutes.count)) \(list(minutes) { String($0) }) past \(plural("hour", hours.count)) \(list(hours) { String($0) })"
    }

    /// The step of values that run `first, first + step, …` to the end of the field with
    /// `first < step` (`*/5`, `H/15`): nil for other lists or fewer than 4 values.
    private static func progressionStep(_ values: [Int], upperBound: Int) -> Int? {
        guard values.count >= 4 else { return nil }
        let step = values[1] - values[0]
        guard step > 1, values[0] < step, values.last! + step > upperBound,
              zip(values, values.dropFirst()).allSatisfy({ $1 - $0 == step })
        else { return nil }
        return step
    }

    /// "Sunday through Thursday", "1, 15 and 28", "January through March and December".
    static func list(_ values: [Int], name: (Int) -> String) -> String {
        var items: [String] = []
        for run in runs(values) {
            if run.count >= 3 {
                items.append("\(name(run.first!)) through \(name(run.last!))")
            } else {
                items.append(contentsOf: run.map(name))
            }
        }
        return joinedList(items)
    }

    private static func runs(_ values: [Int]) -> [[Int]] {
        var runs: [[Int]] = []
        for value in values {
            if let last = runs.last?.last, last + 1 == value {
                runs[runs.count - 1].append(value)
            } else {
                runs.append([value])
            }
        }
        return runs
    }

    private static func joinedList(_ items: [String]) -> String {
        guard items.count > 1 else { return items.first ?? "" }
        return items.dropLast().joined(separator: ", ") + " and " + items.last!
    }

    private static func plural(_ word: String, _ count: Int) -> String { count == 1 ? word : word + "s" }

    private static func pad(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
}
