/// The lexer of one schedule line, equivalent to Jenkins' `CrontabLexer.g4` including what it
/// reports on bad input: ANTLR's longest match means a partial keyword (`h` of `hourly`) swallows
/// the next character into the error text.
struct CronLexer {
    private let scalars: [Unicode.Scalar]
    private var position = 0

    init(line: String) {
        scalars = Array(line.unicodeScalars)
    }

    /// The next token, or the lexer error ANTLR would report for it.
    mutating func nextToken() throws(CronLineError) -> CronToken {
        let start = position
        guard start < scalars.count else {
            return CronToken(kind: .endOfInput, text: "<EOF>", column: start)
        }
        let first = scalars[start]
        switch first {
        case "0"..."9":
            while position < scalars.count, ("0"..."9").contains(scalars[position]) { position += 1 }
            return token(.number, from: start)
        case " ", "\t":
            while position < scalars.count, scalars[position] == " " || scalars[position] == "\t" { position += 1 }
            return token(.whitespace, from: start)
        case "-": return single(.minus)
        case "*": return single(.star)
        case "/": return single(.slash)
        case ",": return single(.comma)
        case "@": return single(.at)
        case "H": return single(.hash)
        case "(": return single(.openParen)
        case ")": return single(.closeParen)
        default:
            return try keyword(from: start)
        }
    }

    private mutating func single(_ kind: CronTokenKind) -> CronToken {
        position += 1
        return token(kind, from: position - 1)
    }

    private func token(_ kind: CronTokenKind, from start: Int) -> CronToken {
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<position])
        return CronToken(kind: kind, text: text, column: start)
    }

    /// Follows the input while it is a prefix of some keyword. No keyword is a prefix of another, so
    /// the first complete keyword is the token; otherwise the error covers the prefix read so far
    /// plus the character that broke it.
    private mutating func keyword(from start: Int) throws(CronLineError) -> CronToken {
        var candidates = CronTokenKind.keywords.map { (kind: $0, text: Array($0.keywordText!.unicodeScalars)) }
        var length = 0
        while true {
            let index = start + length
            guard index < scalars.count else { break }
            let next = scalars[index]
            candidates = candidates.filter { $0.text.count > length && $0.text[length] == next }
            guard let match = candidates.first else {
                length += 1  // the offending character is part of ANTLR's error text
                break
            }
            length += 1
            if match.text.count == length {
                position = start + length
                return token(match.kind, from: start)
            }
        }
        let end = min(start + length, scalars.count)
        var text = ""
        text.unicodeScalars.append(contentsOf: scalars[start..<end])
        throw .recognition(column: start, message: "token recognition error at: '\(CronToken.escapeControlCharacters(text))'")
    }
}
