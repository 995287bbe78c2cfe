/// A recursive-descent parser for the Ruby subset Fastfiles use. A statement it cannot read does not
/// stop it: the statement's whole text (balanced to its `end`) becomes `.unreadable` and parsing goes on.
struct RubyParser {
    private let source: [UInt8]
    private var tokens: [RubyToken]
    private var index = 0
    private var scopes: [Set<String>] = [[]]
    private var depth = 0
    /// The original text of every statement read, by its position: what a TODO block quotes.
    private(set) var statementTexts: [SourcePosition: String] = [:]
    /// Recursion bound: deeper nesting than any Fastfile has is reported, never a stack overflow.
    private static let maximumDepth = 150
    /// Terms of one operator chain (`"a" + "b" + ...`): far more than a Fastfile writes, far fewer than a stack holds.
    static let maximumTerms = 5_000

    init(_ text: String, startLine: Int = 1, startColumn: Int = 1, locals: Set<String> = []) {
        source = Array(text.utf8)
        tokens = RubyLexer.tokenize(text, startLine: startLine, startColumn: startColumn)
        scopes = [locals]
    }

    /// Every top-level statement of `text`.
    static func parse(_ text: String) -> [RubyNode] {
        var parser = RubyParser(text)
        return parser.parseProgram()
    }

    /// The statements and the original text of each, for TODO blocks.
    static func parseWithTexts(_ text: String) -> (statements: [RubyNode], texts: [SourcePosition: String]) {
        var parser = RubyParser(text)
        let statements = parser.parseProgram()
        return (statements, parser.statementTexts)
    }

    mutating func parseProgram() -> [RubyNode] {
        var statements: [RubyNode] = []
        while true {
            skipTerminators()
            if current.kind == .end { break }
            statements.append(parseStatementRecovering(stopKeywords: []))
        }
        return statements
    }

    // MARK: Tokens

    private var current: RubyToken { tokens[min(index, tokens.count - 1)] }
    private func token(at offset: Int) -> RubyToken { tokens[min(index + offset, tokens.count - 1)] }

    private mutating func advance() {
        if index < tokens.count - 1 { index += 1 }
    }

    private var atNewline: Bool { current.kind == .newline || current.isPunct(";") }

    private mutating func skipNewlines() {
        while current.kind == .newline { advance() }
    }

    private mutating func skipTerminators() {
        while current.kind == .newline || current.isPunct(";") { advance() }
    }

    private func fail(_ message: String) -> RubySyntaxError {
        RubySyntaxError(message: message, position: current.start)
    }

    private mutating func expectPunct(_ text: String) throws {
        guard current.isPunct(text) else { throw fail("expected '\(text)'") }
        advance()
    }

    private mutating func expectKeyword(_ word: String) throws {
        guard current.isKeyword(word) else { throw fail("expected '\(word)'") }
        advance()
    }

    private func isLocal(_ name: String) -> Bool { scopes.contains { $0.contains(name) } }
    private mutating func declare(_ name: String) { scopes[scopes.count - 1].insert(name) }

    private mutating func nested<T>(_ body: (inout RubyParser) throws -> T) throws -> T {
        depth += 1
        defer { depth -= 1 }
        guard depth < Self.maximumDepth else { throw fail("nesting deeper than \(Self.maximumDepth) levels") }
        return try body(&self)
    }

    // MARK: Statements

    /// Statements up to one of `stopKeywords` (not consumed) or `}` when `brace`.
    private mutating func parseStatements(until stopKeywords: Set<String>, brace: Bool = false) -> [RubyNode] {
        var statements: [RubyNode] = []
        while true {
            skipTerminators()
            if current.kind == .end { break }
            if let word = current.keyword, stopKeywords.contains(word) { break }
            if brace && current.isPunct("}") { break }
            statements.append(parseStatementRecovering(stopKeywords: stopKeywords, brace: brace))
        }
        return statements
    }

    private mutating func parseStatementRecovering(stopKeywords: Set<String>, brace: Bool = false) -> RubyNode {
        let start = index
        let savedScopes = scopes
        do {
            let statement = try parseStatement()
            // A statement ends at a newline, `;`, or what closes the enclosing construct.
            if atNewline || current.kind == .end || (current.keyword.map(stopKeywords.contains) ?? false) || (brace && current.isPunct("}")) {
                let last = tokens[max(start, index - 1)]
                let from = min(tokens[start].startOffset, source.count), to = min(max(last.endOffset, from), source.count)
                statementTexts[statement.position] = String(decoding: source[from..<to], as: UTF8.self)
                return statement
            }
            throw fail("unexpected \(describe(current)) after a complete statement")
        } catch let error as RubySyntaxError {
            index = start
            scopes = savedScopes
            return skipStatement(reason: error.message, stopKeywords: stopKeywords, brace: brace)
        } catch {
            index = start
            return skipStatement(reason: "\(error)", stopKeywords: stopKeywords, brace: brace)
        }
    }

    private func describe(_ token: RubyToken) -> String {
        String(decoding: source[min(token.startOffset, source.count)..<min(token.endOffset, source.count)], as: UTF8.self).debugDescription
    }

    /// Consumes one statement's tokens, balancing brackets and `do`/`if`/... with `end`, and returns its text.
    private mutating func skipStatement(reason: String, stopKeywords: Set<String>, brace: Bool) -> RubyNode {
        let first = current
        var depth = 0
        var previous: RubyToken?
        let closers: Set<String> = ["end", "else", "elsif", "when", "rescue", "ensure", "in"]
        while current.kind != .end {
            let token = current
            if depth == 0, previous != nil, token.kind == .newline || token.isPunct(";") { break }
            if depth == 0, previous != nil, let word = token.keyword, closers.contains(word) && (word == "end" || stopKeywords.contains(word)) { break }
            if depth == 0, previous != nil, brace, token.isPunct("}") { break }
            if let punct = token.punct {
                if ["(", "[", "{"].contains(punct) { depth += 1 }
                if [")", "]", "}"].contains(punct) {
                    if depth == 0 && previous != nil { break }
                    depth = max(0, depth - 1)
                }
            }
            if let word = token.keyword {
                if ["do", "begin", "def", "class", "module", "case"].contains(word) && !(word == "class" && (previous?.isPunct("<<") ?? false)) {
                    depth += 1
                } else if ["if", "unless", "while", "until", "for"].contains(word) && Self.startsExpression(after: previous) {
                    depth += 1
                } else if word == "end" {
                    depth = max(0, depth - 1)
                }
            }
            previous = token
            advance()
        }
        let end = previous?.endOffset ?? first.endOffset
        let text = String(decoding: source[min(first.startOffset, source.count)..<min(max(end, first.startOffset), source.count)], as: UTF8.self)
        return .unreadable(text: text, reason: reason, first.start)
    }

    /// Whether `if`/`while` after `previous` opens a block (rather than being a modifier).
    private static func startsExpression(after previous: RubyToken?) -> Bool {
        guard let previous else { return true }
        switch previous.kind {
        case .newline: return true
        case .punct(let text): return ![")", "]", "}"].contains(text)
        case .keyword(let word): return !["end", "self", "true", "false", "nil"].contains(word)
        case .label: return true
        default: return false
        }
    }

    private mutating func parseStatement() throws -> RubyNode {
        try nested { parser in
            let start = parser.current
            if start.isKeyword("def") { return try parser.parseDef() }
            if let word = start.keyword, ["class", "module", "alias", "undef", "BEGIN", "END"].contains(word) {
                throw parser.fail("`\(word)` (Ruby definitions are not imported)")
            }
            if case .identifier(let name) = start.kind, ["require", "require_relative", "load", "eval", "instance_eval",
                                                         "define_method", "send", "public_send", "method_missing"].contains(name) {
                throw parser.fail("`\(name)` (Ruby metaprogramming and loading are not imported)")
            }
            var statement = try parser.parseExpressionStatement()
            // Modifiers: `x if y`, `x unless y`, `x while y`, `x rescue y`.
            while let word = parser.current.keyword, ["if", "unless", "while", "until", "rescue"].contains(word) {
                let position = parser.current.start
                parser.advance()
                let condition = try parser.parseExpressionStatement()
                switch word {
                case "if": statement = .ifNode(condition, [statement], nil, position)
                case "unless": statement = .ifNode(.unary("!", condition, position), [statement], nil, position)
                case "while": statement = .whileNode(condition, [statement], until: false, position)
                case "until": statement = .whileNode(condition, [statement], until: true, position)
                default: statement = .begin([statement], [RubyRescue(classes: [], variable: nil, body: [condition])], elseBody: nil, ensure: nil, position)
                }
            }
            return statement
        }
    }

    /// `not`, `and`, `or`: the lowest precedence.
    private mutating func parseExpressionStatement() throws -> RubyNode {
        var left = try parseNot()
        while let word = current.keyword, word == "and" || word == "or" {
            let position = current.start
            advance()
            skipNewlines()
            let right = try parseNot()
            left = .binary(word == "and" ? "&&" : "||", left, right, position)
        }
        return left
    }

    private mutating func parseNot() throws -> RubyNode {
        if current.isKeyword("not") {
            let position = current.start
            advance()
            return .unary("!", try parseNot(), position)
        }
        return try parseAssignment()
    }

    private static let assignmentOperators: Set<String> = ["=", "+=", "-=", "*=", "/=", "||=", "&&=", "|=", "&=", "<<=", ">>=", "**="]

    private mutating func parseAssignment() throws -> RubyNode {
        // `a, b = ...`
        if case .identifier(let first) = current.kind, token(at: 1).isPunct(","), isMultipleAssignment() {
            var targets: [RubyNode] = [.name(first, current.start)]
            let position = current.start
            advance()
            while current.isPunct(",") {
                advance()
                guard case .identifier(let name) = current.kind else { throw fail("expected a name in a multiple assignment") }
                targets.append(.name(name, current.start))
                advance()
            }
            try expectPunct("=")
            skipNewlines()
            let value = try parseCommandOrExpression()
            for case .name(let name, _) in targets { declare(name) }
            return .multipleAssign(targets, value, position)
        }
        let left = try parseTernary()
        if let op = current.punct, Self.assignmentOperators.contains(op) {
            switch left {
            case .name, .index, .instanceVariable, .globalVariable, .constant, .call: break
            default: throw fail("cannot assign to this expression")
            }
            if case .call(let call) = left, call.receiver == nil || !call.arguments.isEmpty || call.block != nil {
                throw fail("cannot assign to a method call")
            }
            let position = current.start
            advance()
            skipNewlines()
            if case .name(let name, _) = left { declare(name) }
            let value = try parseAssignmentValue()
            return .assign(target: left, value: value, op: op == "=" ? nil : String(op.dropLast()), position)
        }
        return left
    }

    private mutating func parseAssignmentValue() throws -> RubyNode {
        let value = try parseCommandOrExpression()
        // `a = b = c` is covered by recursion in parseAssignment via parseCommandOrExpression.
        return value
    }

    private func isMultipleAssignment() -> Bool {
        var offset = 0
        while true {
            guard case .identifier = token(at: offset).kind else { return false }
            let next = token(at: offset + 1)
            if next.isPunct("=") { return true }
            guard next.isPunct(",") else { return false }
            offset += 2
            if offset > 20 { return false }
        }
    }

    private mutating func parseCommandOrExpression() throws -> RubyNode {
        try parseNotOrAssignmentAllowingCommands()
    }

    private mutating func parseNotOrAssignmentAllowingCommands() throws -> RubyNode {
        if current.isKeyword("not") { return try parseNot() }
        return try parseAssignment()
    }

    private mutating func parseTernary() throws -> RubyNode {
        let condition = try parseRange()
        guard current.isPunct("?") else { return condition }
        let position = current.start
        advance()
        skipNewlines()
        let then = try parseTernary()
        skipNewlines()
        // `a ? b : c`, where the lexer may have read `b :c` as a symbol or `b:` as a label.
        if case .symbol(let name, let symbolPosition) = current.kind.symbolValue(at: current.start) ?? .nilValue(current.start), current.spaceBefore {
            advance()
            return .ternary(condition, then, .name(name, symbolPosition), position)
        }
        try expectPunct(":")
        skipNewlines()
        let otherwise = try parseTernary()
        return .ternary(condition, then, otherwise, position)
    }

    private mutating func parseRange() throws -> RubyNode {
        let left = try parseBinary(level: 0)
        if let op = current.punct, op == ".." || op == "..." {
            let position = current.start
            advance()
            let right: RubyNode? = atNewline || current.isPunct(")") || current.isPunct("]") ? nil : try parseBinary(level: 0)
            return .range(left, right, exclusive: op == "...", position)
        }
        return left
    }

    private static let binaryLevels: [Set<String>] = [
        ["||"], ["&&"], ["<=>", "==", "===", "!=", "=~", "!~"], ["<", "<=", ">", ">="], ["|", "^"], ["&"], ["<<", ">>"],
        ["+", "-"], ["*", "/", "%"],
    ]

    private mutating func parseBinary(level: Int) throws -> RubyNode {
        if level >= Self.binaryLevels.count { return try parseUnary() }
        return try nested { parser in
            var left = try parser.parseBinary(level: level + 1)
            var terms = 1
            while let op = parser.current.punct, Self.binaryLevels[level].contains(op) {
                // The tree leans left as deep as the chain is long, and freeing it takes a call per level.
                terms += 1
                guard terms <= Self.maximumTerms else { throw parser.fail("more than \(Self.maximumTerms) terms joined by operators") }
                // `foo -1` and `foo *args` were taken as command arguments before reaching here.
                let position = parser.current.start
                parser.advance()
                parser.skipNewlines()
                let right = try parser.parseBinary(level: level + 1)
                left = .binary(op, left, right, position)
            }
            return left
        }
    }

    private mutating func parseUnary() throws -> RubyNode {
        try nested { parser in
            let position = parser.current.start
            if let op = parser.current.punct {
                switch op {
                case "!", "~":
                    parser.advance()
                    return .unary("!", try parser.parseUnary(), position)
                case "-", "+":
                    parser.advance()
                    let operand = try parser.parseUnary()
                    if op == "-", case .integer(let digits, _) = operand { return .integer("-" + digits, position) }
                    if op == "-", case .float(let digits, _) = operand { return .float("-" + digits, position) }
                    return op == "-" ? .unary("-", operand, position) : operand
                case "*", "**":
                    parser.advance()
                    return .splat(try parser.parseUnary(), position)
                case "&":
                    parser.advance()
                    return .blockPass(try parser.parseUnary(), position)
                default: break
                }
            }
            if parser.current.isKeyword("defined?") {
                parser.advance()
                let hasParens = parser.current.isPunct("(")
                if hasParens { parser.advance() }
                let operand = try parser.parseExpressionStatement()
                if hasParens { try parser.expectPunct(")") }
                return .defined(operand, position)
            }
            var base = try parser.parsePostfix()
            if parser.current.isPunct("**") {
                let position = parser.current.start
                parser.advance()
                base = .binary("**", base, try parser.parseUnary(), position)
            }
            return base
        }
    }

    // MARK: Postfix and calls

    private mutating func parsePostfix(allowCommand: Bool = true, allowDoBlock: Bool = true) throws -> RubyNode {
        var node = try parsePrimary(allowCommand: allowCommand, allowDoBlock: allowDoBlock)
        while true {
            // A method chain may continue on the next line with a leading dot.
            var lookahead = 0
            while token(at: lookahead).kind == .newline { lookahead += 1 }
            if lookahead > 0, token(at: lookahead).isPunct(".") || token(at: lookahead).isPunct("&.") {
                for _ in 0..<lookahead { advance() }
            }
            if current.isPunct(".") || current.isPunct("&.") {
                let safe = current.isPunct("&.")
                advance()
                skipNewlines()
                let position = current.start
                let name: String
                switch current.kind {
                case .identifier(let text), .constant(let text), .keyword(let text): name = text
                case .label(let text):
                    // `a.b:` cannot happen after a dot; the lexer reads `x.y ? a : b` labels only after `?`.
                    name = text
                case .punct("("): name = "call"
                default: throw fail("expected a method name after '.'")
                }
                if !current.isPunct("(") { advance() }
                var target = name
                if current.isPunct("=") && !token(at: 1).isPunct("=") && current.spaceBefore || (current.isPunct("=") && !current.spaceBefore) {
                    // `a.b = c` is an attribute assignment: leave `=` for parseAssignment.
                    node = .call(RubyCall(receiver: node, name: target, arguments: [], keywords: [], block: nil, position: position,
                                          hasParentheses: false, safeNavigation: safe))
                    continue
                }
                if target.hasSuffix(":") { target = String(target.dropLast()) }
                node = try parseCallRest(receiver: node, name: target, position: position, allowCommand: allowCommand,
                                         allowDoBlock: allowDoBlock, safe: safe)
                continue
            }
            if current.isPunct("::") {
                advance()
                switch current.kind {
                case .constant(let name):
                    advance()
                    if case .constant(let base, let position) = node {
                        node = .constant(base + "::" + name, position)
                    } else {
                        node = .call(RubyCall(receiver: node, name: name, arguments: [], keywords: [], block: nil, position: current.start,
                                              hasParentheses: false, safeNavigation: false))
                    }
                case .identifier(let name):
                    let position = current.start
                    advance()
                    node = try parseCallRest(receiver: node, name: name, position: position, allowCommand: allowCommand,
                                             allowDoBlock: allowDoBlock, safe: false)
                default: throw fail("expected a name after '::'")
                }
                continue
            }
            if current.isPunct("["), !current.spaceBefore {
                let position = current.start
                advance()
                let items = try parseList(closing: "]")
                node = .index(node, items, position)
                continue
            }
            break
        }
        return node
    }

    /// Whether `token` can begin a command call's first argument (`gym scheme: "App"`, `puts "hi"`).
    private func beginsCommandArgument(_ token: RubyToken) -> Bool {
        guard token.spaceBefore else { return false }
        let next = self.token(at: 1)
        switch token.kind {
        case .string, .symbol, .label, .integer, .float, .identifier, .constant, .instanceVariable, .globalVariable, .words, .command:
            return true
        case .regex: return true
        case .keyword(let word): return ["nil", "true", "false", "self", "not", "defined?", "__FILE__", "__dir__", "lambda", "proc"].contains(word)
        case .punct(let text):
            switch text {
            case "[", "->", "!", "::": return true
            case "-", "*", "&", "**", ":": return !next.spaceBefore
            case "(": return true
            default: return false
            }
        default: return false
        }
    }

    private mutating func parseCallRest(receiver: RubyNode?, name: String, position: SourcePosition, allowCommand: Bool,
                                        allowDoBlock: Bool, safe: Bool) throws -> RubyNode {
        var arguments: [RubyNode] = []
        var keywords: [RubyPair] = []
        var hasParentheses = false
        if current.isPunct("("), !current.spaceBefore {
            advance()
            hasParentheses = true
            (arguments, keywords) = try parseArguments(closing: ")")
        } else if allowCommand, beginsCommandArgument(current) {
            (arguments, keywords) = try parseCommandArguments()
        }
        var block: RubyBlock?
        if current.isKeyword("do") && allowDoBlock {
            block = try parseBlock(closing: "end")
        } else if current.isPunct("{") && (hasParentheses || receiver != nil || arguments.isEmpty && keywords.isEmpty) {
            block = try parseBlock(closing: "}")
        }
        return .call(RubyCall(receiver: receiver, name: name, arguments: arguments, keywords: keywords, block: block, position: position,
                              hasParentheses: hasParentheses, safeNavigation: safe))
    }

    private mutating func parseBlock(closing: String) throws -> RubyBlock {
        let position = current.start
        advance()  // `do` or `{`
        skipNewlines()
        var parameters: [String] = []
        var keywords: [RubyMethod.Parameter] = []
        if current.isPunct("|") || current.isPunct("||") {
            let empty = current.isPunct("||")
            advance()
            if !empty {
                var guardCount = 0
                while !current.isPunct("|") {
                    guardCount += 1
                    if current.kind == .end || current.kind == .newline || guardCount > 100 { throw fail("unclosed block parameters") }
                    if case .identifier(let name) = current.kind { parameters.append(name) }
                    if case .label(let name) = current.kind {
                        // `|name: default|`: the default is one primary value (a full expression would read `|` as an operator).
                        parameters.append(name)
                        advance()
                        var value: RubyNode?
                        if !current.isPunct(","), !current.isPunct("|") {
                            // Anything longer than one value (`-1`, `ENV["X"]`) is skipped and leaves no usable default.
                            value = try? parsePrimary(allowCommand: false, allowDoBlock: false)
                            if !current.isPunct(","), !current.isPunct("|") { value = .unreadable(text: "", reason: "a computed default", current.start) }
                        }
                        keywords.append(.init(name: name, keyword: true, defaultValue: value))
                        if current.isPunct(",") { advance() }
                        continue
                    }
                    if current.isPunct("=") {
                        // A default value: skip its expression.
                        advance()
                        _ = try parseTernary()
                        continue
                    }
                    advance()
                }
                advance()
            }
        }
        scopes.append(Set(parameters))
        defer { scopes.removeLast() }
        let body: [RubyNode]
        if closing == "end" {
            body = try parseBodyWithRescue()
            try expectKeyword("end")
        } else {
            body = parseStatements(until: [], brace: true)
            try expectPunct("}")
        }
        return RubyBlock(parameters: parameters, body: body, position: position, keywords: keywords)
    }

    /// A `do ... end` body may carry `rescue`/`ensure` clauses directly.
    private mutating func parseBodyWithRescue() throws -> [RubyNode] {
        let position = current.start
        let body = parseStatements(until: ["end", "rescue", "ensure", "else"])
        if current.isKeyword("rescue") || current.isKeyword("ensure") || current.isKeyword("else") {
            return [try parseRescueClauses(body: body, position: position)]
        }
        return body
    }

    /// Arguments in parentheses or brackets up to `closing`, newlines and trailing commas allowed.
    private mutating func parseArguments(closing: String) throws -> ([RubyNode], [RubyPair]) {
        var arguments: [RubyNode] = []
        var keywords: [RubyPair] = []
        skipNewlines()
        while !current.isPunct(closing) {
            if current.kind == .end { throw fail("missing '\(closing)'") }
            try parseArgument(into: &arguments, keywords: &keywords, command: false)
            skipNewlines()
            if current.isPunct(",") {
                advance()
                skipNewlines()
            } else if !current.isPunct(closing) {
                throw fail("expected ',' or '\(closing)' in arguments")
            }
        }
        advance()
        return (arguments, keywords)
    }

    private mutating func parseCommandArguments() throws -> ([RubyNode], [RubyPair]) {
        var arguments: [RubyNode] = []
        var keywords: [RubyPair] = []
        while true {
            try parseArgument(into: &arguments, keywords: &keywords, command: true)
            guard current.isPunct(",") else { break }
            advance()
            skipNewlines()
        }
        return (arguments, keywords)
    }

    private mutating func parseArgument(into arguments: inout [RubyNode], keywords: inout [RubyPair], command: Bool) throws {
        if case .label(let key) = current.kind {
            let position = current.start
            advance()
            skipNewlines()
            if current.isPunct(",") || current.isPunct(")") {
                keywords.append(RubyPair(key: .symbol(key, position), value: .name(key, position)))  // `f(x:)`
                return
            }
            keywords.append(RubyPair(key: .symbol(key, position), value: try parseArgumentValue(command: command)))
            return
        }
        // `"key": value`
        if case .string = current.kind, token(at: 1).isPunct(":"), !token(at: 1).spaceBefore {
            let key = try parsePrimary(allowCommand: false, allowDoBlock: false)
            advance()
            skipNewlines()
            keywords.append(RubyPair(key: key, value: try parseArgumentValue(command: command)))
            return
        }
        let value = try parseArgumentValue(command: command)
        if current.isPunct("=>") {
            advance()
            skipNewlines()
            keywords.append(RubyPair(key: value, value: try parseArgumentValue(command: command)))
            return
        }
        arguments.append(value)
    }

    /// One argument: a full expression, but in a command call without a `do` block (it belongs to the command).
    private mutating func parseArgumentValue(command: Bool) throws -> RubyNode {
        if command {
            return try withoutDoBlocks { try $0.parseNot() }
        }
        return try parseNot()
    }

    private var doBlocksAllowed = true

    private mutating func withoutDoBlocks<T>(_ body: (inout RubyParser) throws -> T) throws -> T {
        let saved = doBlocksAllowed
        doBlocksAllowed = false
        defer { doBlocksAllowed = saved }
        return try body(&self)
    }

    private mutating func parseList(closing: String) throws -> [RubyNode] {
        let (arguments, keywords) = try parseArguments(closing: closing)
        if keywords.isEmpty { return arguments }
        return arguments + [.hash(keywords, keywords[0].key.position)]
    }

    // MARK: Primaries

    private mutating func parsePrimary(allowCommand: Bool = true, allowDoBlock: Bool = true) throws -> RubyNode {
        let first = current
        let position = first.start
        let allowDo = allowDoBlock && doBlocksAllowed
        switch first.kind {
        case .string(let pieces):
            advance()
            var parts = stringParts(pieces)
            // Adjacent literals concatenate: "a" "b".
            while case .string(let more) = current.kind, !token(at: 1).isPunct(":") || token(at: 1).spaceBefore {
                advance()
                parts += stringParts(more)
            }
            return .string(parts, position)
        case .command(let pieces):
            advance()
            return .command(stringParts(pieces), position)
        case .symbol(let name):
            advance()
            return .symbol(name, position)
        case .words(let words):
            advance()
            return .array(words.map { .string([.text($0)], position) }, position)
        case .regex(let pattern):
            advance()
            return .regex(pattern, position)
        case .integer(let digits):
            advance()
            return .integer(digits, position)
        case .float(let digits):
            advance()
            return .float(digits, position)
        case .instanceVariable(let name):
            advance()
            return .instanceVariable(name, position)
        case .globalVariable(let name):
            advance()
            return .globalVariable(name, position)
        case .label(let name):
            // A label where a value is expected: `a ? b: c`. Read as a name followed by `:`.
            throw fail("unexpected label \(name):")
        case .constant(let name):
            advance()
            if current.isPunct("("), !current.spaceBefore {
                return try parseCallRest(receiver: nil, name: name, position: position, allowCommand: allowCommand, allowDoBlock: allowDo, safe: false)
            }
            return .constant(name, position)
        case .identifier(let name):
            advance()
            if isLocal(name) && !(current.isPunct("(") && !current.spaceBefore) {
                return .name(name, position)
            }
            if name == "lambda" || name == "proc", current.isPunct("{") || current.isKeyword("do") {
                let block = try parseBlock(closing: current.isPunct("{") ? "}" : "end")
                return .lambda(block, position)
            }
            let call = try parseCallRest(receiver: nil, name: name, position: position, allowCommand: allowCommand, allowDoBlock: allowDo, safe: false)
            if case .call(let c) = call, c.arguments.isEmpty, c.keywords.isEmpty, c.block == nil, !c.hasParentheses {
                return .name(name, position)
            }
            return call
        case .keyword(let word):
            return try parseKeyword(word, position: position)
        case .punct(let text):
            switch text {
            case "(":
                advance()
                skipTerminators()
                if current.isPunct(")") { advance(); return .nilValue(position) }
                var statements: [RubyNode] = []
                while !current.isPunct(")") {
                    if current.kind == .end { throw fail("missing ')'") }
                    statements.append(try parseStatement())
                    skipTerminators()
                }
                advance()
                return statements.count == 1 ? statements[0] : .sequence(statements, position)
            case "[":
                advance()
                return .array(try parseList(closing: "]"), position)
            case "{":
                advance()
                let (arguments, keywords) = try parseArguments(closing: "}")
                guard arguments.isEmpty else { throw fail("a hash needs key: value pairs") }
                return .hash(keywords, position)
            case "->":
                advance()
                var parameters: [String] = []
                if current.isPunct("(") {
                    advance()
                    while !current.isPunct(")") {
                        if current.kind == .end || current.kind == .newline { throw fail("unclosed lambda parameters") }
                        if case .identifier(let name) = current.kind { parameters.append(name) }
                        advance()
                    }
                    advance()
                }
                guard current.isPunct("{") || current.isKeyword("do") else { throw fail("expected a lambda body") }
                let block = try parseBlock(closing: current.isPunct("{") ? "}" : "end")
                return .lambda(RubyBlock(parameters: parameters, body: block.body, position: block.position), position)
            case "::":
                advance()
                guard case .constant(let name) = current.kind else { throw fail("expected a constant after '::'") }
                advance()
                return .constant(name, position)
            case "..", "...":
                advance()
                return .range(nil, try parseBinary(level: 0), exclusive: text == "...", position)
            default:
                throw fail("unexpected \(describe(first))")
            }
        case .newline:
            throw fail("unexpected end of line")
        case .end:
            throw fail("unexpected end of file")
        }
    }

    private mutating func stringParts(_ pieces: [StringPiece]) -> [RubyStringPart] {
        pieces.map { piece in
            switch piece {
            case .text(let text): return .text(text)
            case .code(let code, let position):
                var inner = RubyParser(code, startLine: position.line, startColumn: position.column, locals: scopes.reduce(into: Set()) { $0.formUnion($1) })
                inner.depth = depth + 1
                let statements = inner.parseProgram()
                if statements.isEmpty { return .text("") }
                if statements.count == 1 { return .code(statements[0]) }
                return .code(.sequence(statements, position))
            }
        }
    }

    private mutating func parseKeyword(_ word: String, position: SourcePosition) throws -> RubyNode {
        switch word {
        case "nil": advance(); return .nilValue(position)
        case "true": advance(); return .bool(true, position)
        case "false": advance(); return .bool(false, position)
        case "self": advance(); return .selfValue(position)
        case "__FILE__": advance(); return .string([.text("Fastfile")], position)
        case "__dir__": advance(); return .string([.text("fastlane")], position)  // the Fastfile's folder, from the project
        case "if", "unless":
            advance()
            let condition = try parseExpressionStatement()
            if current.isKeyword("then") { advance() }
            let then = parseStatements(until: ["elsif", "else", "end"])
            let otherwise = try parseElse()
            try expectKeyword("end")
            return .ifNode(word == "unless" ? .unary("!", condition, position) : condition, then, otherwise, position)
        case "while", "until":
            advance()
            let condition = try withoutDoBlocks { try $0.parseExpressionStatement() }
            if current.isKeyword("do") { advance() }
            let body = parseStatements(until: ["end"])
            try expectKeyword("end")
            return .whileNode(condition, body, until: word == "until", position)
        case "for":
            advance()
            var names: [String] = []
            while case .identifier(let name) = current.kind {
                names.append(name)
                declare(name)
                advance()
                if current.isPunct(",") { advance() } else { break }
            }
            try expectKeyword("in")
            let sequence = try withoutDoBlocks { try $0.parseExpressionStatement() }
            if current.isKeyword("do") { advance() }
            let body = parseStatements(until: ["end"])
            try expectKeyword("end")
            return .forNode(names, sequence, body, position)
        case "case":
            advance()
            let subject: RubyNode? = atNewline ? nil : try parseExpressionStatement()
            skipTerminators()
            var whens: [RubyWhen] = []
            while current.isKeyword("when") {
                advance()
                var values: [RubyNode] = []
                repeat {
                    if current.isPunct(",") { advance(); skipNewlines() }
                    values.append(try parseTernary())
                } while current.isPunct(",")
                if current.isKeyword("then") { advance() }
                whens.append(RubyWhen(values: values, body: parseStatements(until: ["when", "else", "end"])))
            }
            if current.isKeyword("in") { throw fail("`case ... in` pattern matching is not imported") }
            var otherwise: [RubyNode]?
            if current.isKeyword("else") {
                advance()
                otherwise = parseStatements(until: ["end"])
            }
            try expectKeyword("end")
            return .caseNode(subject, whens, otherwise, position)
        case "begin":
            advance()
            let body = parseStatements(until: ["rescue", "ensure", "else", "end"])
            let node = try parseRescueClauses(body: body, position: position)
            try expectKeyword("end")
            return node
        case "return", "next", "break":
            advance()
            var value: RubyNode?
            if !atNewline, current.kind != .end, !(current.keyword.map { ["if", "unless", "end"].contains($0) } ?? false), !current.isPunct("}") {
                value = try parseExpressionStatement()
            }
            if word == "return" { return .returnNode(value, position) }
            if word == "next" { return .next(value, position) }
            return .breakNode(position)
        case "defined?":
            return try parseUnary()
        case "not":
            return try parseNot()
        default:
            throw fail("`\(word)` is not imported")
        }
    }

    /// `def name(a, b = 1, c:, d: 2)` ... `end`; `def self.name` too.
    private mutating func parseDef() throws -> RubyNode {
        let position = current.start
        advance()
        if current.isKeyword("self"), token(at: 1).isPunct(".") { advance(); advance() }
        let name: String
        switch current.kind {
        case .identifier(let text), .constant(let text): name = text
        case .label: throw fail("a def whose name the importer cannot read")
        default: throw fail("expected a method name after def")
        }
        advance()
        if current.isPunct("=") { throw fail("an endless def") }
        var parameters: [RubyMethod.Parameter] = []
        let parenthesized = current.isPunct("(") && !current.spaceBefore || current.isPunct("(")
        if parenthesized { advance() }
        var guardCount = 0
        while !(parenthesized ? current.isPunct(")") : atNewline) {
            guardCount += 1
            if current.kind == .end || guardCount > 64 { throw fail("unclosed method parameters") }
            switch current.kind {
            case .identifier(let parameter):
                advance()
                var value: RubyNode?
                if current.isPunct("=") { advance(); value = try parseTernary() }
                parameters.append(.init(name: parameter, keyword: false, defaultValue: value))
            case .label(let parameter):
                advance()
                var value: RubyNode?
                if !current.isPunct(","), !current.isPunct(")"), !atNewline { value = try parseTernary() }
                parameters.append(.init(name: parameter, keyword: true, defaultValue: value))
            case .punct(let text) where ["*", "**", "&"].contains(text):
                throw fail("a method with \(text) parameters")
            default:
                throw fail("a method parameter the importer cannot read")
            }
            if current.isPunct(",") { advance(); skipNewlines() }
        }
        if parenthesized { advance() }
        scopes.append(Set(parameters.map(\.name)))
        defer { scopes.removeLast() }
        let body = try parseBodyWithRescue()
        try expectKeyword("end")
        return .def(RubyMethod(name: name, parameters: parameters, body: body, position: position))
    }

    private mutating func parseElse() throws -> [RubyNode]? {
        if current.isKeyword("elsif") {
            let position = current.start
            advance()
            let condition = try parseExpressionStatement()
            if current.isKeyword("then") { advance() }
            let then = parseStatements(until: ["elsif", "else", "end"])
            return [.ifNode(condition, then, try parseElse(), position)]
        }
        if current.isKeyword("else") {
            advance()
            return parseStatements(until: ["end"])
        }
        return nil
    }

    private mutating func parseRescueClauses(body: [RubyNode], position: SourcePosition) throws -> RubyNode {
        var rescues: [RubyRescue] = []
        while current.isKeyword("rescue") {
            advance()
            var classes: [String] = []
            var variable: String?
            while case .constant(let name) = current.kind {
                var full = name
                advance()
                while current.isPunct("::"), case .constant(let more) = token(at: 1).kind {
                    full += "::" + more
                    advance(); advance()
                }
                classes.append(full)
                if current.isPunct(",") { advance() } else { break }
            }
            if current.isPunct("=>") {
                advance()
                guard case .identifier(let name) = current.kind else { throw fail("expected a name after 'rescue =>'") }
                variable = name
                declare(name)
                advance()
            }
            if current.isKeyword("then") { advance() }
            rescues.append(RubyRescue(classes: classes, variable: variable, body: parseStatements(until: ["rescue", "else", "ensure", "end"])))
        }
        var elseBody: [RubyNode]?
        if current.isKeyword("else") {
            advance()
            elseBody = parseStatements(until: ["ensure", "end"])
        }
        var ensure: [RubyNode]?
        if current.isKeyword("ensure") {
            advance()
            ensure = parseStatements(until: ["end"])
        }
        return .begin(body, rescues, elseBody: elseBody, ensure: ensure, position)
    }
}

extension RubyToken.Kind {
    /// The symbol a ternary's `b :c` was read as, if it is one.
    func symbolValue(at position: SourcePosition) -> RubyNode? {
        if case .symbol(let name) = self { return .symbol(name, position) }
        return nil
    }
}
