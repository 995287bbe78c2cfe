/// The five fields of a schedule line, in order.
public enum CronField: Int, CaseIterable, Sendable, Codable {
    case minute, hour, dayOfMonth, month, dayOfWeek

    /// Inclusive bounds a value must lie within (Jenkins' `LOWER_BOUNDS` / `UPPER_BOUNDS`).
    public var bounds: ClosedRange<Int> {
        switch self {
        case .minute: 0...59
        case .hour: 0...23
        case .dayOfMonth: 1...31
        case .month: 1...12
        case .dayOfWeek: 0...7
        }
    }

    /// Highest value a plain `H` or `H/n` may pick: 28 for day-of-month (valid in every month) and
    /// 6 for day-of-week (7 would duplicate Sunday).
    var hashUpperBound: Int {
        switch self {
        case .dayOfMonth: 28
        case .dayOfWeek: 6
        default: bounds.upperBound
        }
    }

    /// The key used in JSON output.
    public var key: String {
        switch self {
        case .minute: "minute"
        case .hour: "hour"
        case .dayOfMonth: "dom"
        case .month: "month"
        case .dayOfWeek: "dow"
        }
    }
}
