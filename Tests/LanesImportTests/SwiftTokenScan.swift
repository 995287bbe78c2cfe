/// A Swift lexer just deep enough to tell code from data in a generated Lanefile: comments end where
/// Swift's lexer ends them (LF or CR), string literals (single-line, multi-line, raw) are data except
/// their interpolations, which are code. What it returns is every identifier read as code, with its
/// line, and the problems that would let text escape (a literal a raw line end breaks).
struct SwiftTokenScan {
    struct Identifier: Equatable {
        let name: String
        let line: Int
    }

    private(set) var codeIdentifiers: [Identifier] = []
    private(set) var problems: [String] = []

    private let scalars: [Unicode.Scalar]
    private var index = 0
    private var line = 1

    init(_ text: String) {
        scalars = Array(text.unicodeScalars)
        scanCode(untilParenthesis: false)
    }

    private var current: Unicode.Scalar? { index < scalars.count ? scalars[index] : nil }
    private func peek(_ offset: Int) -> Unicode.Scalar? { index + offset < scalars.count ? scalars[index + offset] : nil }

    private mutating func advance() {
        if let scalar = current, scalar == "\n" || scalar == "\r" {
            // CR LF counts once.
            if !(scalar == "\r" && peek(1) == "\n") { line += 1 }
        }
        index += 1
    }

    private static func isIdentifierStart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isXIDStart
    }

    private static func isIdentifierPart(_ scalar: Unicode.Scalar) -> Bool {
        scalar == "_" || scalar.properties.isXIDContinue
    }

    /// Code, up to the end of the text or the `)` closing an interpolation.
    private mutating func scanCode(untilParenthesis: Bool) {
        var depth = 0
        while let scalar = current {
            switch scalar {
            case "/" where peek(1) == "/":
                while let next = current, next != "\n", next != "\r" { advance() }
            case "/" where peek(1) == "*":
                advance(); advance()
                var nesting = 1
                while current != nil, nesting > 0 {
                    if current == "/", peek(1) == "*" { nesting += 1; advance() } else if current == "*", peek(1) == "/" { nesting -= 1; advance() }
                    advance()
                }
            case "\"":
                scanString()
            case "#" where peek(1) == "\"" || peek(1) == "#":
                scanString()
            case "(":
                depth += 1
                advance()
            case ")":
                if untilParenthesis && depth == 0 { advance(); return }
                depth -= 1
                advance()
            default:
                if Self.isIdentifierStart(scalar) {
                    let start = index
                    let startLine = line
                    while let next = current, Self.isIdentifierPart(next) { advance() }
                    var name = String.UnicodeScalarView()
                    name.append(contentsOf: scalars[start ..< index])
                    codeIdentifiers.append(Identifier(name: String(name), line: startLine))
                } else if scalar == "`" {
                    // A back-quoted identifier.
                    advance()
                    let start = index
                    while let next = current, next != "`", next != "\n" { advance() }
                    var name = String.UnicodeScalarView()
                    name.append(contentsOf: scalars[start ..< index])
                    codeIdentifiers.append(Identifier(name: String(name), line: line))
                    advance()
                } else {
                    advance()
                }
            }
        }
        if untilParenthesis { problems.append("an interpolation not closed before the end of the file") }
    }

    /// A string literal starting at `#`s or `"`: its interpolations are scanned as code.
    private mutating func scanString() {
        var hashes = 0
        while current == "#" { hashes += 1; advance() }
        guard current == "\"" else { return }
        let multiline = peek(1) == "\"" && peek(2) == "\""
        let startLine = line
        advance()
        if multiline { advance(); advance() }
        while let scalar = current {
            if scalar == "\\" {
                var count = 0
                while count < hashes, peek(1 + count) == "#" { count += 1 }
                if count == hashes {
                    for _ in 0 ... hashes { advance() }
                    if current == "(" {
                        advance()
                        scanCode(untilParenthesis: true)
                    } else {
                        advance()
                    }
                    continue
                }
                advance()
                continue
            }
            if scalar == "\"" {
                let closes = multiline ? peek(1) == "\"" && peek(2) == "\"" : true
                var count = 0
                let quoteLength = multiline ? 3 : 1
                while count < hashes, peek(quoteLength + count) == "#" { count += 1 }
                if closes && count == hashes {
                    for _ in 0 ..< quoteLength + hashes { advance() }
                    return
                }
            }
            if !multiline, scalar == "\n" || scalar == "\r" {
                problems.append("line \(startLine): a string literal broken by a raw line end")
                return
            }
            advance()
        }
        problems.append("line \(startLine): a string literal not closed before the end of the file")
    }
}
