/// Why one schedule line was rejected, before the line number and text are attached.
enum CronLineError: Error, Equatable {
    /// An ANTLR-reported problem: lexer, parser or Jenkins' own range checks, at a 0-based column.
    case recognition(column: Int, message: String)
    /// `Integer.parseInt` overflow, which Jenkins reports without a position.
    case numberFormat(text: String)

    /// The message as Jenkins prints it inside `Invalid input: "…": <message>`.
    func message(lineNumber: Int) -> String {
        switch self {
        case let .recognition(column, message): "line \(lineNumber):\(column): \(message)"
        case let .numberFormat(text): "For input string: \"\(text)\""
        }
    }
}
