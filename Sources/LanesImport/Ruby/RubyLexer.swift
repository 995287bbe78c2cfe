/// Splits the Ruby that Fastfiles use into tokens with positions. It never fails: text it cannot
/// classify becomes a punctuation token of one character, which the parser then reports.
struct RubyLexer {
    static let keywords: Set<String> = [
        "alias", "and", "begin", "break", "case", "class", "def", "defined?", "do", "else", "elsif", "end", "ensure",
        "false", "for", "if", "in", "module", "next", "nil", "not", "or", "redo", "rescue", "retry", "return", "self",
        "super", "then", "true", "undef", "unless", "until", "when", "while", "yield", "__FILE__", "__dir__",
    ]

    private let bytes: [UInt8]
    private var index = 0
    private var line: Int
    private var lineStart = 0
    private let columnOffset: Int
    private var tokens: [RubyToken] = []
    private var pendingHeredocs: [(terminator: String, squiggly: Bool, dash: Bool, raw: Bool, token: Int)] = []
    private var parenDepth = 0

    /// `startLine`/`startColumn`: where `source` begins in its file (for `#{...}` code).
    init(_ source: String, startLine: Int = 1, startColumn: Int = 1) {
        bytes = Array(source.utf8)
        line = startLine
        columnOffset = startColumn - 1
    }

    static func tokenize(_ source: String, startLine: Int = 1, startColumn: Int = 1) -> [RubyToken] {
        var lexer = RubyLexer(source, startLine: startLine, startColumn: startColumn)
        return lexer.run()
    }

    private var position: SourcePosition {
        SourcePosition(line: line, column: (line == lineStartLine ? columnOffset : 0) + (index - lineStart) + 1)
    }
    private var lineStartLine = -1

    private func peek(_ offset: Int = 0) -> UInt8 {
        index + offset < bytes.count ? bytes[index + offset] : 0
    }

    private mutating func run() -> [RubyToken] {
        lineStartLine = line
        var spaceBefore = true
        if bytes.starts(with: Array("=begin".utf8)) { skipBlockComment() }
        while index < bytes.count {
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                index += 1
                spaceBefore = true
                continue
            case UInt8(ascii: "\\") where peek(1) == UInt8(ascii: "\n"):
                index += 2
                newLine()
                spaceBefore = true
                continue
            case UInt8(ascii: "#"):
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                continue
            case UInt8(ascii: "\n"):
                add(.newline, from: index, to: index + 1, spaceBefore: spaceBefore)
                index += 1
                newLine()
                readHeredocBodies()
                if bytes[index...].starts(with: Array("=begin".utf8)) { skipBlockComment() }
                if bytes[index...].starts(with: Array("__END__".utf8)) { index = bytes.count }
                spaceBefore = true
                continue
            default:
                break
            }
            lexToken(spaceBefore: spaceBefore)
            spaceBefore = false
        }
        add(.end, from: bytes.count, to: bytes.count, spaceBefore: true)
        return tokens
    }

    private mutating func newLine() {
        line += 1
        lineStart = index
    }

    private mutating func skipBlockComment() {
        while index < bytes.count {
            let start = index
            while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            let isEnd = bytes[start..<index].starts(with: Array("=end".utf8))
            if index < bytes.count { index += 1; newLine() }
            if isEnd { return }
        }
    }

    private mutating func add(_ kind: RubyToken.Kind, from start: Int, to end: Int, spaceBefore: Bool, at position: SourcePosition? = nil) {
        let where_ = position ?? SourcePosition(line: line, column: (line == lineStartLine ? columnOffset : 0) + (start - lineStart) + 1)
        tokens.append(RubyToken(kind: kind, start: where_, startOffset: start, endOffset: end, spaceBefore: spaceBefore))
    }

    /// Whether the previous token ends a value, which makes `/` a division and `?` a ternary.
    private var afterValue: Bool {
        guard let last = tokens.last else { return false }
        switch last.kind {
        case .identifier, .constant, .integer, .float, .string, .symbol, .words, .command, .regex, .instanceVariable, .globalVariable:
            return true
        case .keyword(let word): return ["end", "self", "true", "false", "nil", "__FILE__"].contains(word)
        case .punct(let text): return [")", "]", "}"].contains(text)
        default: return false
        }
    }

    private static func isIdentifierStart(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte >= 0x80
    }

    private static func isIdentifierPart(_ byte: UInt8) -> Bool {
        isIdentifierStart(byte) || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
    }

    private static func isDigit(_ byte: UInt8) -> Bool { byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") }

    private func text(_ start: Int, _ end: Int) -> String { String(decoding: bytes[start..<min(end, bytes.count)], as: UTF8.self) }

    private mutating func lexToken(spaceBefore: Bool) {
        let start = index
        let startPosition = position
        let byte = bytes[index]
        if Self.isIdentifierStart(byte) {
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
            if (peek() == UInt8(ascii: "?") || peek() == UInt8(ascii: "!")) && peek(1) != UInt8(ascii: "=") { index += 1 }
            let word = text(start, index)
            // `key: value` (not `a ? b :c`, not `A::B`).
            if peek() == UInt8(ascii: ":") && peek(1) != UInt8(ascii: ":") && !(tokens.last?.isPunct("?") ?? false)
                && !(tokens.last.map { $0.isPunct(".") || $0.isPunct("&.") } ?? false) {
                index += 1
                add(.label(word), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
                return
            }
            if word == "defined" && peek() == UInt8(ascii: "?") { index += 1 }
            let afterDot = tokens.last.map { $0.isPunct(".") || $0.isPunct("&.") || $0.isPunct("::") } ?? false
            if !afterDot && Self.keywords.contains(word) {
                add(.keyword(word), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
            } else if byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") {
                add(.constant(word), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
            } else {
                add(.identifier(word), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
            }
            return
        }
        if Self.isDigit(byte) {
            var isFloat = false
            while index < bytes.count, Self.isDigit(bytes[index]) || bytes[index] == UInt8(ascii: "_")
                || (bytes[index] == UInt8(ascii: ".") && Self.isDigit(peek(1)) && !isFloat) {
                if bytes[index] == UInt8(ascii: ".") { isFloat = true }
                index += 1
            }
            if peek() == UInt8(ascii: "x") || peek() == UInt8(ascii: "b") {
                index += 1
                // ASCII only: a number's text is written into the Lanefile as it is.
                while index < bytes.count, bytes[index] < 0x80, Self.isIdentifierPart(bytes[index]) { index += 1 }
            }
            let digits = text(start, index).replacing("_", with: "")
            add(isFloat ? .float(digits) : .integer(digits), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
            return
        }
        switch byte {
        case UInt8(ascii: "\""):
            index += 1
            let pieces = readString(until: UInt8(ascii: "\""), interpolating: true)
            add(.string(pieces), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
        case UInt8(ascii: "'"):
            index += 1
            let pieces = readString(until: UInt8(ascii: "'"), interpolating: false)
            add(.string(pieces), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
        case UInt8(ascii: "`"):
            index += 1
            let pieces = readString(until: UInt8(ascii: "`"), interpolating: true)
            add(.command(pieces), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
        case UInt8(ascii: ":") where peek(1) == UInt8(ascii: "\"") && !afterValueNoSpace(spaceBefore):
            index += 2
            let pieces = readString(until: UInt8(ascii: "\""), interpolating: true)
            add(.symbol(Self.plain(pieces)), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
        case UInt8(ascii: ":") where Self.isIdentifierStart(peek(1)) && (spaceBefore || !afterValue):
            index += 1
            let nameStart = index
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
            if peek() == UInt8(ascii: "?") || peek() == UInt8(ascii: "!") || peek() == UInt8(ascii: "=") && peek(1) != UInt8(ascii: ">") && peek(1) != UInt8(ascii: "=") {
                if peek() != UInt8(ascii: "=") { index += 1 }
            }
            add(.symbol(text(nameStart, index)), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
        case UInt8(ascii: "@"):
            index += 1
            if peek() == UInt8(ascii: "@") { index += 1 }
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
            add(.instanceVariable(text(start, index)), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
        case UInt8(ascii: "$"):
            index += 1
            if index < bytes.count, !Self.isIdentifierPart(bytes[index]) { index += 1 }
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
            add(.globalVariable(text(start, index)), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
        case UInt8(ascii: "%") where !afterValueNoSpace(spaceBefore) && Self.percentLiteral(peek(1), peek(2)):
            readPercentLiteral(start: start, position: startPosition, spaceBefore: spaceBefore)
        case UInt8(ascii: "/") where !afterValue || (spaceBefore && peek(1) != UInt8(ascii: " ") && isCommandArgumentPosition):
            index += 1
            let pieces = readString(until: UInt8(ascii: "/"), interpolating: true)
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }  // flags
            add(.regex(Self.plain(pieces)), from: start, to: index, spaceBefore: spaceBefore, at: startPosition)
        case UInt8(ascii: "<") where peek(1) == UInt8(ascii: "<") && (peek(2) == UInt8(ascii: "~") || peek(2) == UInt8(ascii: "-")
                                                                    || (Self.isIdentifierStart(peek(2)) && peek(2) >= UInt8(ascii: "A") && peek(2) <= UInt8(ascii: "Z"))
                                                                    || peek(2) == UInt8(ascii: "'") || peek(2) == UInt8(ascii: "\""))
            && (!afterValue || spaceBefore && peek(2) != UInt8(ascii: " ")):
            readHeredocStart(start: start, position: startPosition, spaceBefore: spaceBefore)
        default:
            let three = text(index, index + 3)
            let two = text(index, index + 2)
            let operators3 = ["**=", "<=>", "===", "...", "<<=", ">>=", "&&=", "||="]
            let operators2 = ["**", "==", "!=", ">=", "<=", "&&", "||", "<<", ">>", "=>", "->", "::", "..", "+=", "-=", "*=", "/=",
                              "|=", "&=", "=~", "!~", "&."]
            let length = operators3.contains(three) ? 3 : operators2.contains(two) ? 2 : 1
            // A multi-byte character outside identifiers: take it whole.
            var end = index + length
            if byte >= 0x80 { while end < bytes.count, bytes[end] & 0xC0 == 0x80 { end += 1 } }
            index = end
            add(.punct(text(start, end)), from: start, to: end, spaceBefore: spaceBefore, at: startPosition)
        }
    }

    private func afterValueNoSpace(_ spaceBefore: Bool) -> Bool { afterValue && !spaceBefore }

    /// `foo /x/`: an identifier directly before, so a command's first argument.
    private var isCommandArgumentPosition: Bool {
        if case .identifier = tokens.last?.kind { return true }
        return false
    }

    static func plain(_ pieces: [StringPiece]) -> String {
        pieces.map { piece in
            switch piece {
            case .text(let text): text
            case .code(let code, _): "#{\(code)}"
            }
        }.joined()
    }

    private static func percentLiteral(_ first: UInt8, _ second: UInt8) -> Bool {
        let kinds: [UInt8] = Array("wWiIqQr".utf8)
        if kinds.contains(first) { return [UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "<"), UInt8(ascii: "|"), UInt8(ascii: "!")].contains(second) }
        return [UInt8(ascii: "["), UInt8(ascii: "("), UInt8(ascii: "{"), UInt8(ascii: "|"), UInt8(ascii: "!")].contains(first)
    }

    private static func closing(_ open: UInt8) -> UInt8 {
        switch open {
        case UInt8(ascii: "["): UInt8(ascii: "]")
        case UInt8(ascii: "("): UInt8(ascii: ")")
        case UInt8(ascii: "{"): UInt8(ascii: "}")
        case UInt8(ascii: "<"): UInt8(ascii: ">")
        default: open
        }
    }

    private mutating func readPercentLiteral(start: Int, position: SourcePosition, spaceBefore: Bool) {
        index += 1
        var kind = UInt8(ascii: "Q")
        if Array("wWiIqQr".utf8).contains(bytes[index]) { kind = bytes[index]; index += 1 }
        let open = bytes[index]
        index += 1
        let close = Self.closing(open)
        let interpolating = [UInt8(ascii: "W"), UInt8(ascii: "I"), UInt8(ascii: "Q"), UInt8(ascii: "r")].contains(kind)
        let pieces = readString(until: close, interpolating: interpolating, opening: open == close ? nil : open)
        switch kind {
        case UInt8(ascii: "w"), UInt8(ascii: "W"), UInt8(ascii: "i"), UInt8(ascii: "I"):
            let words = Self.plain(pieces).split(whereSeparator: { $0 == " " || $0 == "\n" || $0 == "\t" }).map(String.init)
            add(.words(words), from: start, to: index, spaceBefore: spaceBefore, at: position)
        case UInt8(ascii: "r"):
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
            add(.regex(Self.plain(pieces)), from: start, to: index, spaceBefore: spaceBefore, at: position)
        default:
            add(.string(pieces), from: start, to: index, spaceBefore: spaceBefore, at: position)
        }
    }

    /// Reads up to the unescaped `terminator` (consumed), keeping `#{...}` as code pieces. Nested
    /// `opening`/`terminator` pairs (`%w(a (b))`) and braces inside interpolations are balanced.
    private mutating func readString(until terminator: UInt8, interpolating: Bool, opening: UInt8? = nil) -> [StringPiece] {
        var pieces: [StringPiece] = []
        var current: [UInt8] = []
        var depth = 0
        while index < bytes.count {
            let byte = bytes[index]
            if byte == terminator && depth == 0 { index += 1; break }
            if let opening, byte == opening { depth += 1 }
            if byte == terminator { depth -= 1 }
            if byte == UInt8(ascii: "\n") {
                current.append(byte)
                index += 1
                newLine()
                continue
            }
            if byte == UInt8(ascii: "\\"), index + 1 < bytes.count {
                let next = bytes[index + 1]
                index += 2
                if !interpolating {
                    if next == terminator || next == UInt8(ascii: "\\") { current.append(next) } else { current += [byte, next] }
                    continue
                }
                switch next {
                case UInt8(ascii: "n"): current.append(UInt8(ascii: "\n"))
                case UInt8(ascii: "t"): current.append(UInt8(ascii: "\t"))
                case UInt8(ascii: "e"): current.append(0x1B)
                case UInt8(ascii: "0"): current.append(0)
                case UInt8(ascii: "\n"): newLine()
                default: current.append(next)
                }
                continue
            }
            if interpolating, byte == UInt8(ascii: "#"), peek(1) == UInt8(ascii: "{") {
                if !current.isEmpty { pieces.append(.text(String(decoding: current, as: UTF8.self))); current = [] }
                index += 2
                let codePosition = position
                let codeStart = index
                var braces = 0
                while index < bytes.count {
                    let inner = bytes[index]
                    if inner == UInt8(ascii: "}") && braces == 0 { break }
                    if inner == UInt8(ascii: "{") { braces += 1 }
                    if inner == UInt8(ascii: "}") { braces -= 1 }
                    if inner == UInt8(ascii: "\n") { index += 1; newLine(); continue }
                    if inner == UInt8(ascii: "\"") || inner == UInt8(ascii: "'") {
                        // A string inside the interpolation: skip it whole.
                        index += 1
                        while index < bytes.count, bytes[index] != inner {
                            if bytes[index] == UInt8(ascii: "\\") { index += 1 }
                            index += 1
                        }
                    }
                    index += 1
                }
                pieces.append(.code(text(codeStart, index), codePosition))
                if index < bytes.count { index += 1 }
                continue
            }
            current.append(byte)
            index += 1
        }
        if !current.isEmpty || pieces.isEmpty { pieces.append(.text(String(decoding: current, as: UTF8.self))) }
        return pieces
    }

    private mutating func readHeredocStart(start: Int, position: SourcePosition, spaceBefore: Bool) {
        index += 2
        var squiggly = false, dash = false
        if peek() == UInt8(ascii: "~") { squiggly = true; index += 1 } else if peek() == UInt8(ascii: "-") { dash = true; index += 1 }
        var raw = false
        var terminator: String
        if peek() == UInt8(ascii: "'") || peek() == UInt8(ascii: "\"") {
            let quote = peek()
            raw = quote == UInt8(ascii: "'")
            index += 1
            let nameStart = index
            while index < bytes.count, bytes[index] != quote, bytes[index] != UInt8(ascii: "\n") { index += 1 }
            terminator = text(nameStart, index)
            if index < bytes.count, bytes[index] == quote { index += 1 }
        } else {
            let nameStart = index
            while index < bytes.count, Self.isIdentifierPart(bytes[index]) { index += 1 }
            terminator = text(nameStart, index)
        }
        if terminator.isEmpty { terminator = "\u{0}" }
        add(.string([]), from: start, to: index, spaceBefore: spaceBefore, at: position)
        pendingHeredocs.append((terminator, squiggly, dash, raw, tokens.count - 1))
    }

    /// After a newline: the bodies of heredocs opened on the line just ended.
    private mutating func readHeredocBodies() {
        let pending = pendingHeredocs
        pendingHeredocs = []
        for heredoc in pending {
            var lines: [String] = []
            var found = false
            while index < bytes.count {
                let lineBegin = index
                while index < bytes.count, bytes[index] != UInt8(ascii: "\n") { index += 1 }
                let content = text(lineBegin, index)
                if index < bytes.count { index += 1 }
                newLine()
                let trimmed = content.drop { $0 == " " || $0 == "\t" }
                if (heredoc.squiggly || heredoc.dash) ? trimmed == heredoc.terminator : content == heredoc.terminator {
                    found = true
                    break
                }
                lines.append(content)
            }
            _ = found
            if heredoc.squiggly {
                let indents = lines.filter { !$0.allSatisfy { $0 == " " || $0 == "\t" } }.map { $0.prefix { $0 == " " || $0 == "\t" }.count }
                let indent = indents.min() ?? 0
                lines = lines.map { String($0.dropFirst(min(indent, $0.prefix { $0 == " " || $0 == "\t" }.count))) }
            }
            let body = lines.map { $0 + "\n" }.joined()
            let old = tokens[heredoc.token]
            let pieces: [StringPiece] = heredoc.raw ? [.text(body)] : Self.interpolated(body, at: SourcePosition(line: old.start.line + 1, column: 1))
            tokens[heredoc.token] = RubyToken(kind: .string(pieces), start: old.start, startOffset: old.startOffset,
                                              endOffset: old.endOffset, spaceBefore: old.spaceBefore)
        }
    }

    /// A heredoc body read as a double-quoted string.
    private static func interpolated(_ body: String, at position: SourcePosition) -> [StringPiece] {
        var lexer = RubyLexer(body + "\u{1}", startLine: position.line)
        lexer.lineStartLine = position.line
        return lexer.readString(until: 1, interpolating: true)
    }
}
