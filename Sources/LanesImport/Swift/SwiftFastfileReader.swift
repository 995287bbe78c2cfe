/// Reads a Swift Fastfile (`class Fastfile: LaneFile { func betaLane() { ... } }`) into the same tree
/// as a Ruby one: `buildApp(scheme: "App")` becomes the call `build_app(scheme: "App")`,
/// `environmentVariable(get: "X")` becomes `ENV["X"]`, `options?["x"]` becomes `options[:x]`.
/// A small Swift subset: what fastlane's generated API is called with.
struct SwiftFastfileReader {
    private struct Token {
        enum Kind: Equatable {
            case identifier(String)
            case string([StringPiece])
            case number(String)
            case punct(String)
            case newline
            case end
        }
        let kind: Kind
        let position: SourcePosition
        let startOffset: Int
        let endOffset: Int

        func isPunct(_ text: String) -> Bool { kind == .punct(text) }
        func isWord(_ text: String) -> Bool { kind == .identifier(text) }
    }

    private let source: [UInt8]
    private var tokens: [Token] = []
    private var index = 0
    private var texts: [SourcePosition: String] = [:]
    private var depth = 0
    /// Functions of the Fastfile's own `extension Dictionary` that take one unlabelled key
    /// (`func get(_ key: Key) -> Value { self[key] ... }`): `options.get("x")` reads the lane option x.
    private var optionAccessors: Set<String> = []

    static func read(_ text: String) -> ([RubyNode], [SourcePosition: String]) {
        var reader = SwiftFastfileReader(source: Array(text.utf8))
        reader.tokenize()
        reader.optionAccessors = reader.dictionaryAccessors()
        let statements = reader.readFile()
        return (statements, reader.texts)
    }

    private init(source: [UInt8]) { self.source = source }

    // MARK: Tokens

    private mutating func tokenize(startLine: Int = 1, startColumn: Int = 1) {
        var offset = 0, line = startLine, lineStart = 0
        func position(_ at: Int) -> SourcePosition {
            SourcePosition(line: line, column: at - lineStart + 1 + (line == startLine ? startColumn - 1 : 0))
        }
        func isIdentifier(_ byte: UInt8) -> Bool {
            byte == UInt8(ascii: "_") || (byte | 0x20 >= UInt8(ascii: "a") && byte | 0x20 <= UInt8(ascii: "z")) || byte >= 0x80
                || (byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9"))
        }
        while offset < source.count {
            let byte = source[offset]
            let start = offset
            let where_ = position(offset)
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\r"):
                offset += 1
            case UInt8(ascii: "\n"):
                tokens.append(Token(kind: .newline, position: where_, startOffset: start, endOffset: start + 1))
                offset += 1; line += 1; lineStart = offset
            case UInt8(ascii: "/") where offset + 1 < source.count && source[offset + 1] == UInt8(ascii: "/"):
                while offset < source.count, source[offset] != UInt8(ascii: "\n") { offset += 1 }
            case UInt8(ascii: "/") where offset + 1 < source.count && source[offset + 1] == UInt8(ascii: "*"):
                offset += 2
                while offset + 1 < source.count, !(source[offset] == UInt8(ascii: "*") && source[offset + 1] == UInt8(ascii: "/")) {
                    if source[offset] == UInt8(ascii: "\n") { line += 1; lineStart = offset + 1 }
                    offset += 1
                }
                offset = min(offset + 2, source.count)
            case UInt8(ascii: "\""):
                let multiline = source[offset...].starts(with: Array("\"\"\"".utf8))
                offset += multiline ? 3 : 1
                var pieces: [StringPiece] = []
                var current: [UInt8] = []
                while offset < source.count {
                    if multiline ? source[offset...].starts(with: Array("\"\"\"".utf8)) : source[offset] == UInt8(ascii: "\"") {
                        offset += multiline ? 3 : 1
                        break
                    }
                    if !multiline && source[offset] == UInt8(ascii: "\n") { break }
                    if source[offset] == UInt8(ascii: "\n") { line += 1; lineStart = offset + 1 }
                    if source[offset] == UInt8(ascii: "\\"), offset + 1 < source.count {
                        let next = source[offset + 1]
                        if next == UInt8(ascii: "(") {
                            if !current.isEmpty { pieces.append(.text(String(decoding: current, as: UTF8.self))); current = [] }
                            offset += 2
                            let codeStart = offset
                            let codePosition = position(offset)
                            var parens = 0
                            while offset < source.count, !(source[offset] == UInt8(ascii: ")") && parens == 0), source[offset] != UInt8(ascii: "\n") {
                                if source[offset] == UInt8(ascii: "(") { parens += 1 }
                                if source[offset] == UInt8(ascii: ")") { parens -= 1 }
                                offset += 1
                            }
                            pieces.append(.code(String(decoding: source[codeStart..<offset], as: UTF8.self), codePosition))
                            if offset < source.count, source[offset] == UInt8(ascii: ")") { offset += 1 }
                            continue
                        }
                        current.append(next == UInt8(ascii: "n") ? UInt8(ascii: "\n") : next == UInt8(ascii: "t") ? UInt8(ascii: "\t") : next)
                        offset += 2
                        continue
                    }
                    current.append(source[offset])
                    offset += 1
                }
                if !current.isEmpty || pieces.isEmpty { pieces.append(.text(String(decoding: current, as: UTF8.self))) }
                tokens.append(Token(kind: .string(pieces), position: where_, startOffset: start, endOffset: offset))
            default:
                if byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9") {
                    // ASCII only: a number's text is written into the Lanefile as it is.
                    while offset < source.count, source[offset] < 0x80 && isIdentifier(source[offset]) || source[offset] == UInt8(ascii: ".")
                            && offset + 1 < source.count && source[offset + 1] >= UInt8(ascii: "0") && source[offset + 1] <= UInt8(ascii: "9") {
                        offset += 1
                    }
                    tokens.append(Token(kind: .number(String(decoding: source[start..<offset], as: UTF8.self)), position: where_, startOffset: start, endOffset: offset))
                } else if isIdentifier(byte) {
                    while offset < source.count, isIdentifier(source[offset]) { offset += 1 }
                    tokens.append(Token(kind: .identifier(String(decoding: source[start..<offset], as: UTF8.self)), position: where_, startOffset: start, endOffset: offset))
                } else {
                    let two = offset + 1 < source.count ? String(decoding: source[offset...offset + 1], as: UTF8.self) : ""
                    let length = ["==", "!=", "&&", "||", "->", "??", "<=", ">=", "+=", "-="].contains(two) ? 2 : 1
                    var end = offset + length
                    if byte >= 0x80 { while end < source.count, source[end] & 0xC0 == 0x80 { end += 1 } }
                    tokens.append(Token(kind: .punct(String(decoding: source[offset..<min(end, source.count)], as: UTF8.self)), position: where_,
                                        startOffset: start, endOffset: min(end, source.count)))
                    offset = min(end, source.count)
                }
            }
        }
        tokens.append(Token(kind: .end, position: SourcePosition(line: line, column: 1), startOffset: source.count, endOffset: source.count))
    }

    private var current: Token { tokens[min(index, tokens.count - 1)] }
    private func peek(_ offset: Int) -> Token { tokens[min(index + offset, tokens.count - 1)] }

    /// The names of `func NAME(_ key: ...)` declared in `extension Dictionary ... { }` blocks.
    private func dictionaryAccessors() -> Set<String> {
        var names: Set<String> = []
        var at = 0
        while at + 1 < tokens.count {
            guard tokens[at].isWord("extension"), tokens[at + 1].isWord("Dictionary") else { at += 1; continue }
            at += 2
            while at < tokens.count, !tokens[at].isPunct("{"), tokens[at].kind != .end { at += 1 }
            var level = 0
            repeat {
                if tokens[at].isPunct("{") { level += 1 } else if tokens[at].isPunct("}") { level -= 1 }
                if level == 1, at + 4 < tokens.count, tokens[at].isWord("func"), case .identifier(let name) = tokens[at + 1].kind,
                   tokens[at + 2].isPunct("("), tokens[at + 3].isWord("_") {
                    names.insert(name)
                }
                at += 1
            } while at < tokens.count && level > 0 && tokens[at].kind != .end
        }
        return names
    }
    private mutating func advance() { if index < tokens.count - 1 { index += 1 } }
    private mutating func skipNewlines() { while current.kind == .newline || current.isPunct(";") { advance() } }

    private func fail(_ message: String) -> RubySyntaxError { RubySyntaxError(message: message, position: current.position) }

    private mutating func expect(_ text: String) throws {
        guard current.isPunct(text) else { throw fail("expected '\(text)'") }
        advance()
    }

    /// Skips a balanced `{ ... }`, `( ... )` or `[ ... ]` starting at the current token.
    private mutating func skipBalanced() {
        var level = 0
        repeat {
            if current.isPunct("{") || current.isPunct("(") || current.isPunct("[") { level += 1 }
            if current.isPunct("}") || current.isPunct(")") || current.isPunct("]") { level -= 1 }
            if current.kind == .end { return }
            advance()
        } while level > 0
    }

    private func text(from start: Int, to end: Int) -> String {
        String(decoding: source[min(start, source.count)..<min(max(end, start), source.count)], as: UTF8.self)
    }

    // MARK: The class

    private mutating func readFile() -> [RubyNode] {
        var statements: [RubyNode] = []
        while current.kind != .end {
            if current.isWord("class"), case .identifier = peek(1).kind {
                while current.kind != .end, !current.isPunct("{") { advance() }
                advance()
                statements += readMembers()
            } else if current.isWord("extension"), peek(1).isWord("Fastfile") {
                // Lanes written in `extension Fastfile { ... }` are the class's own.
                while current.kind != .end, !current.isPunct("{") { advance() }
                advance()
                statements += readMembers()
            } else if current.isWord("extension") || current.isWord("struct") || current.isWord("enum") || current.isWord("func") {
                // Other declarations (helpers for the lanes' own Swift): not lanes.
                while current.kind != .end, !current.isPunct("{") { advance() }
                if current.isPunct("{") { skipBalanced() }
            } else {
                advance()
            }
        }
        return statements
    }

    private mutating func readMembers() -> [RubyNode] {
        var statements: [RubyNode] = []
        while true {
            skipNewlines()
            if current.kind == .end || current.isPunct("}") { advance(); break }
            while case .identifier(let word) = current.kind, ["override", "public", "private", "internal", "open", "final", "static", "@objc", "required"].contains(word) {
                advance()
            }
            guard current.isWord("func"), case .identifier(let name) = peek(1).kind else {
                // Properties (`var fastlaneVersion`), nested types: skip to the end of the declaration.
                let start = current
                while current.kind != .end, current.kind != .newline, !current.isPunct("{") { advance() }
                if current.isPunct("{") { skipBalanced() }
                // A stored or computed setting, or a type's other name (`typealias Options = [String: String]`): no behaviour.
                if case .identifier(let word) = start.kind, !["var", "let", "init", "deinit", "typealias"].contains(word) {
                    statements.append(.unreadable(text: text(from: start.startOffset, to: current.startOffset), reason: "a Swift declaration", start.position))
                }
                continue
            }
            let position = current.position
            advance(); advance()
            var parameters: [String] = []
            if current.isPunct("(") {
                advance()
                var level = 0
                var expectName = true
                while current.kind != .end, !(current.isPunct(")") && level == 0) {
                    if current.isPunct("(") || current.isPunct("[") { level += 1 }
                    if current.isPunct(")") || current.isPunct("]") { level -= 1 }
                    if current.isPunct(",") && level == 0 { expectName = true }
                    // `withOptions options: [String: String]?`: the local name is the word before `:`.
                    if level == 0, case .identifier(let word) = current.kind, peek(1).isPunct(":"), expectName {
                        parameters.append(word)
                        expectName = false
                    }
                    advance()
                }
                advance()
            }
            while current.kind != .end, !current.isPunct("{") { advance() }
            guard current.isPunct("{") else { break }
            advance()
            let body = readStatements()
            let block = RubyBlock(parameters: parameters, body: body.filter { !isDesc($0) }, position: position)
            let hook: String? = switch name {
            case "beforeAll": "before_all"
            case "afterAll": "after_all"
            case "onError": "error"
            default: nil
            }
            if let hook {
                statements.append(.call(RubyCall(receiver: nil, name: hook, arguments: [], keywords: [], block: block, position: position,
                                                 hasParentheses: false, safeNavigation: false)))
            } else if name.hasSuffix("Lane"), name.count > 4 {
                if let desc = body.first(where: isDesc) { statements.append(desc) }
                statements.append(.call(RubyCall(receiver: nil, name: "lane", arguments: [.symbol(String(name.dropLast(4)), position)], keywords: [],
                                                 block: block, position: position, hasParentheses: false, safeNavigation: false)))
            } else {
                statements.append(.unreadable(text: "func \(Self.snakeCase(name))(...)", reason: "a Swift helper function", position))
            }
        }
        return statements
    }

    private func isDesc(_ node: RubyNode) -> Bool {
        if case .call(let call) = node, call.name == "desc" { return true }
        return false
    }

    // MARK: Statements

    private mutating func readStatements() -> [RubyNode] {
        var statements: [RubyNode] = []
        while true {
            skipNewlines()
            if current.kind == .end { break }
            if current.isPunct("}") { advance(); break }
            let start = index
            do {
                let statement = try readStatement()
                texts[statement.position] = text(from: tokens[start].startOffset, to: tokens[max(start, index - 1)].endOffset)
                statements.append(statement)
            } catch {
                index = start
                let first = current
                var level = 0
                while current.kind != .end {
                    if level == 0, current.kind == .newline, index > start { break }
                    if current.isPunct("{") || current.isPunct("(") || current.isPunct("[") { level += 1 }
                    if current.isPunct("}") || current.isPunct(")") || current.isPunct("]") {
                        if level == 0 { break }
                        level -= 1
                    }
                    advance()
                }
                if index == start { advance() }  // always move on, whatever the token
                let reason = (error as? RubySyntaxError)?.message ?? "\(error)"
                statements.append(.unreadable(text: text(from: first.startOffset, to: tokens[max(start, index - 1)].endOffset), reason: reason, first.position))
            }
        }
        return statements
    }

    private mutating func nested<T>(_ body: (inout SwiftFastfileReader) throws -> T) throws -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth < 100 else { throw fail("nesting too deep") }
        return try body(&self)
    }

    private mutating func readStatement() throws -> RubyNode {
        try nested { reader in
            let position = reader.current.position
            if reader.current.isWord("let") || reader.current.isWord("var") {
                reader.advance()
                guard case .identifier(let name) = reader.current.kind else { throw reader.fail("expected a name") }
                reader.advance()
                if reader.current.isPunct(":") {
                    // A type annotation: skip to `=`.
                    while reader.current.kind != .end, reader.current.kind != .newline, !reader.current.isPunct("=") { reader.advance() }
                }
                try reader.expect("=")
                let value = try reader.readExpression()
                return .assign(target: .name(name, position), value: value, op: nil, position)
            }
            if reader.current.isWord("if") {
                reader.advance()
                return try reader.readIf(position: position)
            }
            if reader.current.isWord("for") {
                reader.advance()
                guard case .identifier(let name) = reader.current.kind else { throw reader.fail("expected a name") }
                reader.advance()
                guard reader.current.isWord("in") else { throw reader.fail("expected 'in'") }
                reader.advance()
                let sequence = try reader.readExpression()
                try reader.expect("{")
                return .forNode([name], sequence, reader.readStatements(), position)
            }
            if reader.current.isWord("return") {
                reader.advance()
                return .returnNode(nil, position)
            }
            if case .identifier(let word) = reader.current.kind, ["guard", "switch", "while", "repeat", "do", "defer", "func", "struct", "class", "enum"].contains(word) {
                throw reader.fail("Swift `\(word)` is not imported")
            }
            let expression = try reader.readExpression()
            if reader.current.isPunct("=") {
                reader.advance()
                return .assign(target: expression, value: try reader.readExpression(), op: nil, position)
            }
            return expression
        }
    }

    private mutating func readIf(position: SourcePosition) throws -> RubyNode {
        var bindings: [RubyNode] = []
        var conditions: [RubyNode] = []
        repeat {
            if current.isPunct(",") { advance() }
            if current.isWord("let") || current.isWord("var") {
                advance()
                guard case .identifier(let name) = current.kind else { throw fail("expected a name") }
                let namePosition = current.position
                advance()
                let value: RubyNode
                if current.isPunct("=") {
                    advance()
                    value = try readExpression()
                } else {
                    value = .name(name, namePosition)
                }
                bindings.append(.assign(target: .name(name, namePosition), value: value, op: nil, namePosition))
                conditions.append(value)
            } else {
                conditions.append(try readExpression())
            }
        } while current.isPunct(",")
        try expect("{")
        let then = bindings + readStatements()
        var otherwise: [RubyNode]?
        if current.isWord("else") {
            advance()
            if current.isWord("if") {
                let inner = current.position
                advance()
                otherwise = [try readIf(position: inner)]
            } else {
                try expect("{")
                otherwise = readStatements()
            }
        }
        let condition = conditions.dropFirst().reduce(conditions[0]) { .binary("&&", $0, $1, position) }
        return .ifNode(condition, then, otherwise, position)
    }

    // MARK: Expressions

    private static let levels: [[String]] = [["??", "||"], ["&&"], ["==", "!=", "<", "<=", ">", ">="], ["+", "-"], ["*", "/", "%"]]

    private mutating func readExpression(level: Int = 0) throws -> RubyNode {
        try nested { reader in
            if level >= Self.levels.count { return try reader.readUnary() }
            var left = try reader.readExpression(level: level + 1)
            while case .punct(let op) = reader.current.kind, Self.levels[level].contains(op) {
                let position = reader.current.position
                reader.advance()
                reader.skipNewlines()
                let right = try reader.readExpression(level: level + 1)
                left = .binary(op == "??" ? "||" : op, left, right, position)
            }
            return left
        }
    }

    private mutating func readUnary() throws -> RubyNode {
        let position = current.position
        if current.isPunct("!") { advance(); return .unary("!", try readUnary(), position) }
        if current.isPunct("-"), case .number(let digits) = peek(1).kind { advance(); advance(); return .integer("-" + digits, position) }
        return try readPostfix()
    }

    private mutating func readPostfix() throws -> RubyNode {
        var node = try readPrimary()
        while true {
            if current.isPunct("?") || current.isPunct("!") { advance(); continue }  // optional chaining, force unwrap
            if current.isPunct("."), case .identifier(let name) = peek(1).kind {
                let position = peek(1).position
                advance(); advance()
                var arguments: [RubyNode] = [], keywords: [RubyPair] = []
                if current.isPunct("(") { (arguments, keywords) = try readArguments() }
                if case .name("options", _) = node, optionAccessors.contains(name), keywords.isEmpty, arguments.count == 1,
                   let key = arguments[0].symbolText {
                    node = .index(node, [.symbol(key, position)], position)
                    continue
                }
                if case .name("self", _) = node {
                    // `self.testLane()` calls the lane `test`, `self.helper()` the class's own function.
                    let callName = name.hasSuffix("Lane") && name.count > 4 ? String(name.dropLast(4)) : Self.snakeCase(name)
                    node = .call(RubyCall(receiver: nil, name: callName, arguments: arguments, keywords: keywords, block: nil,
                                          position: position, hasParentheses: true, safeNavigation: false))
                    continue
                }
                node = .call(RubyCall(receiver: node, name: Self.snakeCase(name), arguments: arguments, keywords: keywords, block: nil,
                                      position: position, hasParentheses: true, safeNavigation: false))
                continue
            }
            if current.isPunct("[") {
                let position = current.position
                advance()
                let key = try readExpression()
                try expect("]")
                // `options?["x"]` is fastlane's lane options: a symbol key, as in Ruby.
                if case .name("options", _) = node, let text = key.symbolText {
                    node = .index(node, [.symbol(text, position)], position)
                } else {
                    node = .index(node, [key], position)
                }
                continue
            }
            break
        }
        return node
    }

    private mutating func readArguments() throws -> ([RubyNode], [RubyPair]) {
        try expect("(")
        var arguments: [RubyNode] = [], keywords: [RubyPair] = []
        skipNewlines()
        while !current.isPunct(")") {
            if current.kind == .end { throw fail("missing ')'") }
            if case .identifier(let label) = current.kind, peek(1).isPunct(":") {
                let position = current.position
                advance(); advance()
                skipNewlines()
                keywords.append(RubyPair(key: .symbol(Self.snakeCase(label), position), value: try readExpression()))
            } else {
                arguments.append(try readExpression())
            }
            skipNewlines()
            if current.isPunct(",") { advance(); skipNewlines() } else if !current.isPunct(")") { throw fail("expected ',' or ')'") }
        }
        advance()
        if current.isPunct("{") { throw fail("a trailing closure") }
        return (arguments, keywords)
    }

    private mutating func readPrimary() throws -> RubyNode {
        let token = current
        let position = token.position
        switch token.kind {
        case .string(let pieces):
            advance()
            let parts: [RubyStringPart] = try pieces.map { piece in
                switch piece {
                case .text(let text): return .text(text)
                case .code(let code, let where_):
                    var inner = SwiftFastfileReader(source: Array(code.utf8))
                    inner.tokenize(startLine: where_.line, startColumn: where_.column)
                    inner.depth = depth
                    return .code(try inner.readExpression())
                }
            }
            return .string(parts, position)
        case .number(let digits):
            advance()
            return digits.contains(".") ? .float(digits, position) : .integer(digits, position)
        case .identifier(let name):
            advance()
            switch name {
            case "true": return .bool(true, position)
            case "false": return .bool(false, position)
            case "nil": return .nilValue(position)
            default: break
            }
            if current.isPunct("(") {
                let (arguments, keywords) = try readArguments()
                switch name {
                case "environmentVariable":
                    guard let key = keywords.first?.value ?? arguments.first else { throw fail("environmentVariable without a name") }
                    return .index(.constant("ENV", position), [key], position)
                case "desc":
                    return .call(RubyCall(receiver: nil, name: "desc", arguments: arguments + keywords.map(\.value), keywords: [], block: nil,
                                          position: position, hasParentheses: true, safeNavigation: false))
                default:
                    // `betaLane()` calls the lane `beta`; everything else is fastlane's API in camel case.
                    let callName = name.hasSuffix("Lane") && name.count > 4 ? String(name.dropLast(4)) : Self.snakeCase(name)
                    return .call(RubyCall(receiver: nil, name: callName, arguments: arguments, keywords: keywords, block: nil,
                                          position: position, hasParentheses: true, safeNavigation: false))
                }
            }
            if let first = name.unicodeScalars.first, first.properties.isUppercase { return .constant(name, position) }
            return .name(name, position)
        case .punct("."):
            // `.appstore`, `.userDefined("x")`
            advance()
            guard case .identifier(let member) = current.kind else { throw fail("expected a member name") }
            advance()
            if current.isPunct("(") {
                let (arguments, _) = try readArguments()
                if ["userDefined", "fastlaneDefault"].contains(member), let value = arguments.first { return value }
                throw fail("the enum case .\(member)(...)")
            }
            return .symbol(Self.snakeCase(member), position)
        case .punct("("):
            advance()
            let inner = try readExpression()
            try expect(")")
            return inner
        case .punct("["):
            advance()
            skipNewlines()
            var items: [RubyNode] = [], pairs: [RubyPair] = []
            if current.isPunct(":") { advance(); try expect("]"); return .hash([], position) }
            while !current.isPunct("]") {
                if current.kind == .end { throw fail("missing ']'") }
                let item = try readExpression()
                if current.isPunct(":") {
                    advance()
                    skipNewlines()
                    pairs.append(RubyPair(key: item, value: try readExpression()))
                } else {
                    items.append(item)
                }
                skipNewlines()
                if current.isPunct(",") { advance(); skipNewlines() } else if !current.isPunct("]") { throw fail("expected ',' or ']'") }
            }
            advance()
            return pairs.isEmpty ? .array(items, position) : .hash(pairs, position)
        default:
            throw fail("unexpected token")
        }
    }



    /// `uploadToTestflight` -> `upload_to_testflight`, `gitURL` -> `git_url`.
    static func snakeCase(_ name: String) -> String {
        var result = ""
        let characters = Array(name)
        for (offset, character) in characters.enumerated() {
            if character.isUppercase {
                let previousLower = offset > 0 && (characters[offset - 1].isLowercase || characters[offset - 1].isNumber)
                let nextLower = offset + 1 < characters.count && characters[offset + 1].isLowercase
                let previousUpper = offset > 0 && characters[offset - 1].isUppercase
                if offset > 0 && (previousLower || (previousUpper && nextLower)) { result += "_" }
                result += character.lowercased()
            } else {
                result.append(character)
            }
        }
        return result
    }
}
