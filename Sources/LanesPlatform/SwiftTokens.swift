/// The tokens of Swift source that matter for finding a block's entries: names, brackets, `.`, `;`,
/// with their nesting depth and line. Strings (interpolations included) and comments are skipped
/// whole; what this lexer does not follow (a bare `/` that may start a regex literal, `#/`) is a
/// token of its own kind, and a string or comment that never ends makes the whole source unread.
/// The driver splits Lanefile blocks with it; the runner and `lanes doctor` find step calls with it.
public struct SwiftTokens {
    public enum Kind: Sendable { case identifier, openBrace, closeBrace, openParen, closeParen, openBracket, closeBracket, period, semicolon, other, unsupported }

    public struct Token: Sendable {
        public let kind: Kind
        public let start: Int
        public let end: Int
        public let line: Int
        /// Brackets of any kind around it; an opening bracket has the depth outside it.
        public let depth: Int

        public func text(_ source: [UInt8]) -> String { String(decoding: source[start..<end], as: UTF8.self) }
    }

    private let source: [UInt8]
    private var position = 0
    private var line = 1
    private var depth = 0
    /// Nil when a string, comment or interpolation never ends.
    public private(set) var tokens: [Token]? = []

    public init(_ source: [UInt8]) {
        self.source = source
        if !lex(until: nil) { tokens = nil }
    }

    private func byte(_ offset: Int) -> UInt8? { offset < source.count ? source[offset] : nil }

    private static func isIdentifierByte(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: "_") || byte >= 0x80 || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
            || ((byte | 0x20) >= UInt8(ascii: "a") && (byte | 0x20) <= UInt8(ascii: "z"))
    }

    private mutating func append(_ kind: Kind, from start: Int, depth tokenDepth: Int? = nil) {
        tokens?.append(Token(kind: kind, start: start, end: position, line: line, depth: tokenDepth ?? depth))
    }

    /// Lexes to the end (`closing` nil) or to the `)` that closes an interpolation; false when the
    /// source ends inside a string, comment or interpolation.
    private mutating func lex(until closing: UInt8?) -> Bool {
        var parens = 0
        let record = closing == nil
        while let current = byte(position) {
            let start = position
            switch current {
            case UInt8(ascii: "\n"):
                line += 1
                position += 1
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                position += 1
            case UInt8(ascii: "/") where byte(position + 1) == UInt8(ascii: "/"):
                while let next = byte(position), next != UInt8(ascii: "\n") { position += 1 }
            case UInt8(ascii: "/") where byte(position + 1) == UInt8(ascii: "*"):
                guard skipBlockComment() else { return false }
            case UInt8(ascii: "/"):
                // `a / b` divides; `/x/` may be a regex literal, which this lexer does not follow.
                let spaced = byte(position + 1).map { $0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\n") || $0 == UInt8(ascii: "=") } ?? true
                position += 1
                if record { append(spaced ? .other : .unsupported, from: start) }
            case UInt8(ascii: "\""), UInt8(ascii: "#") where stringStart(at: position) != nil:
                guard skipString() else { return false }
                if record { append(.other, from: start) }
            case UInt8(ascii: "#") where byte(position + 1) == UInt8(ascii: "/"):
                position += 2
                if record { append(.unsupported, from: start) }
            case UInt8(ascii: "#"):
                // `#if`, `#line`, `#selector(...)`: a directive or a macro; a block holding one is left whole.
                position += 1
                while let next = byte(position), Self.isIdentifierByte(next) { position += 1 }
                if record { append(.unsupported, from: start) }
            case UInt8(ascii: "`"):
                position += 1
                while let next = byte(position), next != UInt8(ascii: "`"), next != UInt8(ascii: "\n") { position += 1 }
                position += 1
                if record { append(.identifier, from: start) }
            case UInt8(ascii: "{"), UInt8(ascii: "("), UInt8(ascii: "["):
                position += 1
                if !record, current == UInt8(ascii: "(") { parens += 1 }
                if record { append(current == UInt8(ascii: "{") ? .openBrace : current == UInt8(ascii: "(") ? .openParen : .openBracket, from: start) }
                depth += 1
            case UInt8(ascii: "}"), UInt8(ascii: ")"), UInt8(ascii: "]"):
                position += 1
                if let closing, current == closing, parens == 0 { return true }
                if !record, current == UInt8(ascii: ")") { parens -= 1 }
                depth = max(0, depth - 1)
                if record { append(current == UInt8(ascii: "}") ? .closeBrace : current == UInt8(ascii: ")") ? .closeParen : .closeBracket, from: start) }
            case UInt8(ascii: "."):
                position += 1
                if record { append(.period, from: start) }
            case UInt8(ascii: ";"):
                position += 1
                if record { append(.semicolon, from: start) }
            default:
                if Self.isIdentifierByte(current) {
                    while let next = byte(position), Self.isIdentifierByte(next) { position += 1 }
                    if record { append(.identifier, from: start) }
                } else {
                    position += 1
                    if record { append(.other, from: start) }
                }
            }
        }
        return closing == nil
    }

    private mutating func skipBlockComment() -> Bool {
        var nesting = 0
        while let current = byte(position) {
            if current == UInt8(ascii: "/"), byte(position + 1) == UInt8(ascii: "*") {
                nesting += 1
                position += 2
            } else if current == UInt8(ascii: "*"), byte(position + 1) == UInt8(ascii: "/") {
                nesting -= 1
                position += 2
                if nesting == 0 { return true }
            } else {
                if current == UInt8(ascii: "\n") { line += 1 }
                position += 1
            }
        }
        return false
    }

    /// The number of `#` before the opening quote, when a string literal starts at `offset`.
    private func stringStart(at offset: Int) -> Int? {
        var hashes = 0
        while byte(offset + hashes) == UInt8(ascii: "#") { hashes += 1 }
        return byte(offset + hashes) == UInt8(ascii: "\"") ? hashes : nil
    }

    /// Skips a string literal: `"..."`, `"""..."""`, and their raw forms `#"..."#`, with `\(...)`
    /// (`\#(...)`) interpolations lexed through to their closing parenthesis.
    private mutating func skipString() -> Bool {
        guard let hashes = stringStart(at: position) else { return false }
        position += hashes
        let multiline = byte(position + 1) == UInt8(ascii: "\"") && byte(position + 2) == UInt8(ascii: "\"")
        position += multiline ? 3 : 1
        let quotes = multiline ? 3 : 1
        while let current = byte(position) {
            if current == UInt8(ascii: "\\"), (1...(hashes + 1)).allSatisfy({ offset in offset > hashes || byte(position + offset) == UInt8(ascii: "#") }) {
                position += 1 + hashes
                if byte(position) == UInt8(ascii: "(") {
                    position += 1
                    let outer = depth
                    guard lex(until: UInt8(ascii: ")")) else { return false }
                    depth = outer
                } else {
                    if byte(position) == UInt8(ascii: "\n") { line += 1 }
                    position += 1
                }
                continue
            }
            if current == UInt8(ascii: "\""), (0..<quotes).allSatisfy({ byte(position + $0) == UInt8(ascii: "\"") }),
               (0..<hashes).allSatisfy({ byte(position + quotes + $0) == UInt8(ascii: "#") }) {
                position += quotes + hashes
                return true
            }
            if current == UInt8(ascii: "\n") {
                guard multiline else { return false }
                line += 1
            }
            position += 1
        }
        return false
    }
}
