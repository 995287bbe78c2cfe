/// Tokens pulled from the lexer only when the parser looks at them, as ANTLR's
/// `CommonTokenStream` does: a lexer error surfaces only once the parser asks for that token, so an
/// earlier parse error wins over a later bad character.
struct CronTokenStream {
    private var lexer: CronLexer
    private var tokens: [CronToken] = []
    private var index = 0

    init(line: String) {
        lexer = CronLexer(line: line)
    }

    /// The token `offset` places ahead (1 = current). Past the end it is the end-of-input token.
    mutating func look(_ offset: Int) throws(CronLineError) -> CronToken {
        let wanted = index + offset - 1
        while tokens.count <= wanted {
            if let last = tokens.last, last.kind == .endOfInput { return last }
            tokens.append(try lexer.nextToken())
        }
        return tokens[wanted]
    }

    mutating func kind(_ offset: Int) throws(CronLineError) -> CronTokenKind {
        try look(offset).kind
    }

    /// Moves past the current token and, like ANTLR, lexes the one after it straight away.
    mutating func consume() throws(CronLineError) {
        if try look(1).kind != .endOfInput { index += 1 }
        _ = try look(1)
    }
}
