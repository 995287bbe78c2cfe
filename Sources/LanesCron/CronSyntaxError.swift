/// A schedule text Jenkins would reject. `message` is Jenkins' exact text, e.g.
/// `Invalid input: "60 * * * *": line 1:2: 60 is an invalid value. Must be within 0 and 59`.
public struct CronSyntaxError: Error, CustomStringConvertible, Sendable, Hashable {
    public let message: String
    /// 1-based physical line of the text (comments, blank lines and `TZ=` count).
    public let lineNumber: Int?
    /// 0-based column within the trimmed line, when Jenkins reports one.
    public let column: Int?

    public init(message: String, lineNumber: Int?, column: Int?) {
        self.message = message
        self.lineNumber = lineNumber
        self.column = column
    }

    public var description: String { message }
}
