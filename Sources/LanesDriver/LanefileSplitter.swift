import LanesPlatform

/// Compiles each entry of a `Lanefile { ... }` block as a declaration of its own.
///
/// Swift type-checks a result-builder closure as one expression, lane bodies included, and its time
/// grows with the square of the statements in it: 50 lanes of 20 steps took 13 s, 200 took 106 s and
/// 2.9 GB, where the same bodies as separate declarations take a second or two. So the driver
/// compiles a copy of each Lanefile source in which a top-level block
///
///     let lanes = Lanefile(steps: [Deploy.self]) {
///         Lane("beta", "...") { ... }
///         .schedule("H 2 * * *")
///         Finally { lane in ... }
///     }
///
/// becomes (the same lines and columns for everything the user wrote: glue is only appended at the
/// ends of lines, and the closing brace becomes a space)
///
///     let lanes = Lanefile(steps: [Deploy.self], __entries: __lanefileEntry_0_0, __lanefileEntry_0_1); private let __lanefileEntry_0_0 = __lanefileEntry(
///         Lane("beta", "...") { ... }
///         .schedule("H 2 * * *")); private let __lanefileEntry_0_1 = __lanefileEntry(
///         Finally { lane in ... })
///
/// `__lanefileEntry` is `LanefileBuilder.buildExpression` under another name, and `Lanefile(__entries:)`
/// joins what they return, so the value is the one the builder makes. A block is left as written
/// when it holds anything but entries on lines of their own (a `let`, an `if`, a `for`, `#if`), when
/// it is not at the top level, or when the lexer meets what it does not follow (a bare `/` regex
/// literal); a source whose strings or comments do not end is left whole.
struct LanefileSplitter {
    static let entryFunction = "__lanefileEntry"
    static let entriesLabel = "__entries"

    /// The rewritten source, or nil when no block could be split.
    static func split(_ source: [UInt8]) -> [UInt8]? {
        guard let tokens = SwiftTokens(source).tokens else { return nil }
        var edits: [(offset: Int, remove: Int, insert: String)] = []
        var blockNumber = 0
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            let token = tokens[index]
            // `NAME = Lanefile ...`: a global's value (a function returning one has a body, not a block).
            guard token.depth == 0, token.kind == .identifier, token.text(source) == "Lanefile",
                  index > 0, tokens[index - 1].kind == .other, tokens[index - 1].text(source) == "=",
                  let block = Block(tokens: tokens, source: source, nameIndex: index)
            else { continue }
            edits += block.edits(number: blockNumber)
            blockNumber += 1
            index = block.closeIndex
        }
        guard !edits.isEmpty else { return nil }
        return applying(edits, to: source)
    }

    private static func applying(_ edits: [(offset: Int, remove: Int, insert: String)], to source: [UInt8]) -> [UInt8] {
        var result = source
        for edit in edits.sorted(by: { $0.offset > $1.offset }) {
            result.replaceSubrange(edit.offset..<(edit.offset + edit.remove), with: Array(edit.insert.utf8))
        }
        return result
    }

    /// A source whose blocks were cut into several files (`parts`).
    struct Parts {
        /// The source with each block's entries replaced by the names of their declarations, and
        /// blanked (line breaks kept, so everything after a block keeps its lines and columns).
        let main: [UInt8]
        /// The entries as declarations, in files of `entriesPerPart`, each with the source's imports.
        let parts: [[UInt8]]
    }

    /// The source as several files, so the compiler generates code for them on several threads: a
    /// split Lanefile's compile is mostly the code generation of its lane bodies (ARCHITECTURE.md).
    /// Each part starts with the source's `import` lines and gives every entry its own declaration,
    /// `let <prefix>_BLOCK_INDEX = __lanefileEntry(` on the line before the entry's first, behind a
    /// `#sourceLocation` naming `file` (a string literal's content, escaped), so the entry's lines and columns are the user's. Nil when
    /// the source has no block to split, too few entries to be worth it, or anything that other
    /// files could not see or that would be copied with its imports: a top-level `private` or
    /// `fileprivate` declaration, a directive (`#if`) outside a block, or an import sharing its
    /// line with something else.
    static func parts(_ source: [UInt8], file: String, prefix: String, entriesPerPart: Int) -> Parts? {
        guard let tokens = SwiftTokens(source).tokens else { return nil }
        var lineStarts = [0]
        for (offset, byte) in source.enumerated() where byte == UInt8(ascii: "\n") { lineStarts.append(offset + 1) }
        func lineText(_ first: Int, through last: Int) -> [UInt8] {
            let end = last < lineStarts.count ? lineStarts[last] : source.count
            var text = Array(source[lineStarts[first - 1]..<end])
            if text.last != UInt8(ascii: "\n") { text.append(UInt8(ascii: "\n")) }
            return text
        }
        func location(_ line: Int) -> [UInt8] { Array("#sourceLocation(file: \"\(file)\", line: \(line))\n".utf8) }

        var imports: [UInt8] = []
        var blocks: [Block] = []
        var index = 0
        while index < tokens.count {
            defer { index += 1 }
            let token = tokens[index]
            guard token.depth == 0 else { continue }
            if token.kind == .unsupported { return nil }
            guard token.kind == .identifier else { continue }
            switch token.text(source) {
            case "private", "fileprivate":
                return nil
            case "import":
                // `import X` (after attributes such as `@preconcurrency`) alone on its line.
                let sameLine = tokens.filter { $0.line == token.line }
                guard sameLine.allSatisfy({ $0.kind == .identifier || $0.kind == .period || $0.text(source) == "@" }),
                      sameLine.filter({ $0.text(source) == "import" }).count == 1 else { return nil }
                imports += location(token.line) + lineText(token.line, through: token.line)
            case "Lanefile":
                guard index > 0, tokens[index - 1].kind == .other, tokens[index - 1].text(source) == "=",
                      let block = Block(tokens: tokens, source: source, nameIndex: index) else { continue }
                blocks.append(block)
                index = block.closeIndex
            default:
                continue
            }
        }
        guard blocks.contains(where: { $0.entryStarts.count > entriesPerPart }) else { return nil }

        var edits: [(offset: Int, remove: Int, insert: String)] = []
        var declarations: [[UInt8]] = []
        for (number, block) in blocks.enumerated() {
            let names = block.entryStarts.indices.map { "\(prefix)_\(number)_\($0)" }
            let entries = "\(LanefileSplitter.entriesLabel): " + names.joined(separator: ", ")
            // The block's text goes; its line breaks stay.
            func blanked(from start: Int) -> String {
                source[start..<block.close.end].map { $0 == UInt8(ascii: "\n") ? "\n" : " " }.joined()
            }
            if let argumentsClose = block.argumentsClose {
                edits.append((argumentsClose, 0, ", " + entries))
                edits.append((block.open.start, block.close.end - block.open.start, blanked(from: block.open.start)))
            } else {
                edits.append((block.name.end, block.close.end - block.name.end, "(\(entries))" + blanked(from: block.name.end)))
            }
            for (entry, start) in block.entryStarts.enumerated() {
                let lastLine = entry + 1 < block.entryStarts.count ? block.entryStarts[entry + 1].line - 1 : block.close.line - 1
                declarations.append(location(start.line - 1) + Array("let \(names[entry]) = \(LanefileSplitter.entryFunction)(\n".utf8)
                                    + lineText(start.line, through: lastLine) + Array(")\n".utf8))
            }
        }
        let parts = stride(from: 0, to: declarations.count, by: entriesPerPart).map { first in
            imports + declarations[first..<min(first + entriesPerPart, declarations.count)].joined()
        }
        return Parts(main: location(1) + applying(edits, to: source), parts: parts)
    }

    /// One `Lanefile [(...)] { entries }` at the top level, when every entry starts a line of its own.
    struct Block {
        /// Where `, __entries: ...)` goes: before the argument list's `)`, or in place of the `{`.
        let argumentsClose: Int?
        let openIndex: Int
        let closeIndex: Int
        let name: SwiftTokens.Token
        let open: SwiftTokens.Token
        let close: SwiftTokens.Token
        /// Each entry's first and last token.
        let entryStarts: [SwiftTokens.Token]
        let entryEnds: [SwiftTokens.Token]

        init?(tokens: [SwiftTokens.Token], source: [UInt8], nameIndex: Int) {
            var cursor = nameIndex + 1
            var argumentsClose: Int?
            if cursor < tokens.count, tokens[cursor].kind == .openParen {
                guard let close = tokens[cursor...].firstIndex(where: { $0.kind == .closeParen && $0.depth == tokens[nameIndex].depth }) else { return nil }
                argumentsClose = close
                cursor = close + 1
            }
            guard cursor < tokens.count, tokens[cursor].kind == .openBrace else { return nil }
            let openIndex = cursor
            let depth = tokens[openIndex].depth + 1
            guard let closeIndex = tokens[(openIndex + 1)...].firstIndex(where: { $0.kind == .closeBrace && $0.depth == depth - 1 }) else { return nil }
            // The `{` ends its line and the `}` stands alone on its own, so the glue never moves a column of the user's.
            guard openIndex + 1 < closeIndex, tokens[openIndex + 1].line > tokens[openIndex].line,
                  closeIndex + 1 == tokens.count || tokens[closeIndex + 1].line > tokens[closeIndex].line,
                  tokens[closeIndex - 1].line < tokens[closeIndex].line
            else { return nil }
            var starts: [SwiftTokens.Token] = []
            var ends: [SwiftTokens.Token] = []
            var previous: SwiftTokens.Token?
            for token in tokens[(openIndex + 1)..<closeIndex] {
                if token.kind == .unsupported { return nil }
                if token.depth == depth {
                    if token.kind == .semicolon { return nil }
                    // A line that starts with `.` continues the entry above (`.schedule(...)`), as one
                    // that starts with the bracket closing its body or arguments does; any other line
                    // at the block's depth starts an entry, which must be an expression.
                    if previous.map({ $0.line < token.line }) ?? true,
                       ![.period, .closeBrace, .closeParen, .closeBracket].contains(token.kind) {
                        guard token.kind == .identifier, !Self.statementWords.contains(token.text(source)) else { return nil }
                        if let previous { ends.append(previous) }
                        starts.append(token)
                    }
                }
                previous = token
            }
            guard let last = previous else { return nil }
            ends.append(last)
            self.argumentsClose = argumentsClose.map { tokens[$0].start }
            self.openIndex = openIndex
            self.closeIndex = closeIndex
            self.name = tokens[nameIndex]
            self.open = tokens[openIndex]
            self.close = tokens[closeIndex]
            self.entryStarts = starts
            self.entryEnds = ends
        }

        /// Words that begin a declaration or a statement: such a block is left as written.
        static let statementWords: Set<String> = [
            "let", "var", "if", "guard", "for", "while", "repeat", "switch", "do", "return", "func", "struct", "class",
            "enum", "actor", "extension", "import", "typealias", "defer", "break", "continue", "throw", "case", "default",
        ]

        func edits(number: Int) -> [(offset: Int, remove: Int, insert: String)] {
            func entry(_ index: Int) -> String { "\(LanefileSplitter.entryFunction)_\(number)_\(index)" }
            func declaration(_ index: Int) -> String { "private let \(entry(index)) = \(LanefileSplitter.entryFunction)(" }
            let entries = "\(LanefileSplitter.entriesLabel): " + entryEnds.indices.map(entry).joined(separator: ", ")
            var edits: [(offset: Int, remove: Int, insert: String)] = []
            if let argumentsClose {
                // `Lanefile(steps: ...) {` → `Lanefile(steps: ..., __entries: ...); private let ... = __lanefileEntry(`
                edits.append((argumentsClose, 0, ", " + entries))
                edits.append((argumentsClose + 1, 0, ";"))
                edits.append((open.start, 1, declaration(0)))
            } else {
                // `Lanefile {` → `Lanefile(__entries: ...); private let ... = __lanefileEntry(`
                edits.append((name.end, open.start + 1 - name.end, "(\(entries)); " + declaration(0)))
            }
            for (index, end) in entryEnds.enumerated() {
                edits.append((end.end, 0, index + 1 < entryEnds.count ? "); " + declaration(index + 1) : ")"))
            }
            edits.append((close.start, 1, " "))
            return edits
        }
    }
}
