/// A place in a Fastfile: 1-based line and column, as editors and compilers count them.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    public let line: Int
    public let column: Int

    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: Self, rhs: Self) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }
}

/// One piece of a string literal: text, or the source of a `#{...}` interpolation with where it starts.
enum StringPiece: Sendable, Equatable {
    case text(String)
    case code(String, SourcePosition)
}

/// A Ruby token with where it starts and ends in the source (UTF-8 offsets), so a statement the
/// parser cannot read can be copied out verbatim.
struct RubyToken: Sendable, Equatable {
    enum Kind: Sendable, Equatable {
        case identifier(String)      // local names and method names, `?`/`!` suffixes included
        case constant(String)        // capitalised names
        case keyword(String)
        case label(String)           // `key:` of a keyword argument or hash
        case symbol(String)          // `:name`, `:"name"`
        case string([StringPiece])   // "…", '…', heredocs, %q/%Q
        case words([String])         // %w[…], %i[…]
        case command([StringPiece])  // `…`
        case regex(String)
        case integer(String)
        case float(String)
        case instanceVariable(String)
        case globalVariable(String)
        case punct(String)           // operators and brackets
        case newline
        case end
    }

    let kind: Kind
    let start: SourcePosition
    let startOffset: Int
    let endOffset: Int
    /// Whether whitespace comes right before the token (Ruby's `foo [1]` differs from `foo[1]`).
    let spaceBefore: Bool

    var punct: String? {
        if case .punct(let text) = kind { return text }
        return nil
    }

    var keyword: String? {
        if case .keyword(let text) = kind { return text }
        return nil
    }

    func isPunct(_ text: String) -> Bool { punct == text }
    func isKeyword(_ text: String) -> Bool { keyword == text }
}

/// A tokenizer failure: what and where. The parser turns it into a TODO block.
struct RubySyntaxError: Error, Sendable {
    let message: String
    let position: SourcePosition
}
