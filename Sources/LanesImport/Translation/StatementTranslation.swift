import LanesRuntime

extension FastfileTranslator {
    /// Each statement of a body; one that cannot be translated becomes a TODO block, and the rest go on.
    mutating func translateBody(_ statements: [RubyNode], into emitter: inout LanefileEmitter) {
        for statement in statements {
            let lineCount = emitter.lines.count
            // Counts, not copies: a copy taken here would be copied again by the first append (quadratic on large Fastfiles).
            let savedReport = report.checkpoint
            let savedLane = lane
            let savedGlobals = (optionDeclarations.count, globalLines.lines.count)
            prelude = []
            do {
                if let flagged = editorOnlyLine(in: statement) { throw Untranslatable(Self.editorOnlyReason(flagged)) }
                try translateStatement(statement, into: &emitter)
            } catch {
                emitter.truncate(to: lineCount)
                report.rollBack(to: savedReport)
                lane = savedLane
                optionDeclarations.removeSubrange(savedGlobals.0...)
                globalLines.truncate(to: savedGlobals.1)
                let reason = (error as? Untranslatable)?.reason ?? "\(error)"
                todo(statement, reason: reason, into: &emitter)
                stop(at: statement, reason: reason, into: &emitter)
            }
        }
    }

    /// Where a statement was not translated, the lane stops: nothing after it runs without it. A
    /// variable it assigned still exists for the code after it, its value `importTODO`, which stops
    /// the lane at that point; any other statement becomes `try importTODO(line:, reason)`.
    private mutating func stop(at statement: RubyNode, reason: String, into emitter: inout LanefileEmitter) {
        let line = statement.position.line
        usesPlaceholder = true
        var names: [String] = []
        switch statement {
        case .assign(.name(let name, _), _, nil, _): names = [name]
        case .assign(let target, _, nil, _):
            if let name = target.laneVariableName, isLaneVariable(name) { names = [name] }
        case .multipleAssign(let targets, _, _): for case .name(let name, _) in targets { names.append(name) }
        default: break
        }
        var declared = false
        for name in names where lane.local(name) == nil {
            lane.scopes[lane.scopes.count - 1][name] = .string
            declared = true
            emitter.emit("\(lane.reassigned.contains(name) ? "var" : "let") \(swiftIdentifier(name)): String = try importTODO(line: \(line))",
                         source: line)
        }
        if !declared {
            emitter.emit("try importTODO(line: \(line), \(SwiftText.literal(reason)))", source: line)
        }
    }

    /// Emits the preludes (hoisted step calls) a statement's expressions needed, then the statement.
    private mutating func emitWithPrelude(_ text: String, line: Int, into emitter: inout LanefileEmitter) {
        for hoisted in prelude { emitter.emit(hoisted, source: line) }
        prelude = []
        emitter.emit(text, source: line)
    }

    private mutating func nestedBlock(_ body: [RubyNode], into emitter: inout LanefileEmitter, declaring names: [String: SwiftValue.Kind] = [:]) {
        lane.scopes.append(names)
        emitter.indent += 1
        let savedPrelude = prelude
        // A step result a nested block keeps is out of scope after it: a later lane_context read
        // stops the lane there (a TODO) instead of naming a variable Swift cannot see.
        let savedResults = lane.sharedResults
        translateBody(body, into: &emitter)
        prelude = savedPrelude
        lane.sharedResults = savedResults
        emitter.indent -= 1
        lane.scopes.removeLast()
    }

    mutating func translateStatement(_ statement: RubyNode, into emitter: inout LanefileEmitter) throws {
        let line = statement.position.line
        switch statement {
        case .unreadable(_, let reason, _):
            throw Untranslatable("not read as Ruby the importer knows (\(reason))")

        case .call(let call):
            try translateCallStatement(call, line: line, into: &emitter)

        case .name(let name, let position):
            if lane.local(name) != nil { return }  // a bare variable does nothing
            try translateCallStatement(RubyCall(receiver: nil, name: name, arguments: [], keywords: [], block: nil, position: position,
                                                hasParentheses: false, safeNavigation: false), line: line, into: &emitter)

        case .assign(let target, let value, let op, _):
            try translateAssignment(target: target, value: value, op: op, line: line, into: &emitter)

        case .ifNode(let condition, let then, let otherwise, _):
            let test = try self.condition(condition)
            emitWithPrelude("if \(test) {", line: line, into: &emitter)
            nestedBlock(then, into: &emitter)
            if let otherwise, !otherwise.isEmpty {
                emitter.emit("} else {", source: line)
                nestedBlock(otherwise, into: &emitter)
            }
            emitter.emit("}", source: line)

        case .whileNode(let condition, let body, let until, _):
            let test = try self.condition(condition)
            guard prelude.isEmpty else { throw Untranslatable("a loop whose condition runs a step") }
            emitter.emit("while \(until ? "!(\(test))" : test) {", source: line)
            nestedBlock(body, into: &emitter)
            emitter.emit("}", source: line)

        case .caseNode(let subject, let whens, let otherwise, _):
            try translateCase(subject: subject, whens: whens, otherwise: otherwise, line: line, into: &emitter)

        case .begin(let body, let rescues, let elseBody, let ensure, _):
            guard elseBody == nil else { throw Untranslatable("`begin ... else` is not imported") }
            if let ensure {
                // `ensure` runs on the way out; Swift's defer cannot await, so run it after a do/catch that rethrows.
                guard !rescues.isEmpty || ensure.isEmpty == false else { break }
            }
            emitter.emit("do {", source: line)
            nestedBlock(body, into: &emitter)
            if rescues.isEmpty {
                emitter.emit("} catch {", source: line)
                if let ensure { nestedBlock(ensure, into: &emitter) }
                emitter.emit("    throw error", source: line)
                emitter.emit("}", source: line)
                if let ensure { for node in ensure { try translateStatement(node, into: &emitter) } }
                return
            }
            for (offset, rescue) in rescues.enumerated() where offset == 0 {
                emitter.emit("} catch {", source: line)
                var names: [String: SwiftValue.Kind] = [:]
                if let variable = rescue.variable {
                    names[variable] = .string
                    emitter.emit("    let \(swiftIdentifier(variable)) = \"\\(error)\"", source: line)
                }
                nestedBlock(rescue.body, into: &emitter, declaring: names)
            }
            if rescues.count > 1 { report.notes.append("line \(line): only the first `rescue` clause was imported; Swift's catch takes every error") }
            emitter.emit("}", source: line)
            if let ensure { for node in ensure { try translateStatement(node, into: &emitter) } }

        case .forNode(let names, let sequence, let body, _):
            guard names.count == 1 else { throw Untranslatable("a for loop over several names") }
            let values = try expression(sequence)
            guard values.kind == .strings else { throw Untranslatable("a loop over something other than a list of strings") }
            emitWithPrelude("for \(swiftIdentifier(names[0])) in \(values.code) {", line: line, into: &emitter)
            nestedBlock(body, into: &emitter, declaring: [names[0]: .string])
            emitter.emit("}", source: line)

        case .returnNode(let value, _), .next(let value, _):
            if let value, !lane.isHook {
                _ = value
                report.notes.append("line \(line): the lane's return value is dropped (a lane returns nothing in lanes)")
            }
            emitter.emit("return", source: line)

        case .string, .symbol, .integer, .float, .bool, .nilValue:
            return  // a value alone does nothing (often a block's result)

        case .sequence(let statements, _):
            for node in statements { try translateStatement(node, into: &emitter) }

        case .binary(let op, let left, let right, _) where op == "&&" || op == "||":
            // `x or y` as control flow: run right when left is false (or true).
            let test = try condition(left)
            emitWithPrelude("if \(op == "&&" ? test : "!(\(test))") {", line: line, into: &emitter)
            nestedBlock([right], into: &emitter)
            emitter.emit("}", source: line)

        case .command:
            let value = try expression(statement)
            emitWithPrelude("_ = \(value.code)", line: line, into: &emitter)

        default:
            throw Untranslatable("a Ruby expression the importer does not translate")
        }
    }

    private mutating func translateAssignment(target: RubyNode, value: RubyNode, op: String?, line: Int, into emitter: inout LanefileEmitter) throws {
        switch target {
        case .name(let name, _):
            let identifier = swiftIdentifier(name)
            if let op {
                guard let kind = lane.local(name) else { throw Untranslatable("`\(name) \(op)=` before \(name) has a value") }
                switch (op, kind) {
                case ("||", _):
                    let right = try expression(value)
                    guard kind == .optionalString, right.kind == .string else { throw Untranslatable("`||=` on a value that is not optional") }
                    emitWithPrelude("\(identifier) = \(identifier) ?? \(right.code)", line: line, into: &emitter)
                case ("+", .string):
                    let right = try expression(value)
                    guard let text = right.asString else { throw Untranslatable("`+=` with a value that is not text") }
                    emitWithPrelude("\(identifier) += \(text)", line: line, into: &emitter)
                case ("+", .int), ("-", .int):
                    let right = try expression(value)
                    guard right.kind == .int else { throw Untranslatable("arithmetic on values that are not numbers") }
                    emitWithPrelude("\(identifier) \(op)= \(right.code)", line: line, into: &emitter)
                default:
                    throw Untranslatable("`\(op)=` on this value")
                }
                return
            }
            var right: SwiftValue
            if let text = value.symbolText, case .string = value, !text.isEmpty, Credentials.isCredentialName(name) {
                // `api_token = "..."`: the name says it is a credential.
                right = credentialSecret(Credentials.environmentName(name), line: line, origin: "`\(name) =`")
            } else {
                right = try expression(value, assigning: true)
            }
            if right.kind == .void { throw Untranslatable("the value of an action that returns nothing in lanes") }
            if right.kind == .nilLiteral { right = SwiftValue("nil as String?", .optionalString) }
            if let existing = lane.local(name) {
                var converted = right
                if existing == .optionalString, right.kind == .string { converted = SwiftValue(right.code, .optionalString) }
                guard converted.kind == existing else { throw Untranslatable("`\(name)` changes type (\(existing) to \(right.kind))") }
                emitWithPrelude("\(identifier) = \(converted.code)", line: line, into: &emitter)
                return
            }
            let mutable = lane.reassigned.contains(name)
            let kind = right.kind
            let code = right.code
            lane.scopes[lane.scopes.count - 1][name] = kind
            emitWithPrelude("\(mutable ? "var" : "let") \(identifier) = \(code)", line: line, into: &emitter)
        case .instanceVariable(let name, _) where sharedNames.contains(name), .globalVariable(let name, _) where sharedNames.contains(name):
            try sharedAssign(name, value: value, op: op, line: line, into: &emitter)
        case .constant(_, let position), .instanceVariable(_, let position), .globalVariable(_, let position):
            // Ruby keeps a constant, `@name` or `$name` beyond the lane, but a lane that assigns one and reads it
            // itself uses it as a local: the Lanefile declares it in the lane (another lane reading it stays a TODO).
            guard let name = target.laneVariableName, isLaneVariable(name) else {
                throw Untranslatable("assignment to something other than a local variable")
            }
            try translateAssignment(target: .name(name, position), value: value, op: op, line: line, into: &emitter)
        case .index(.constant("ENV", _), let keys, _):
            guard let name = keys.first?.symbolText else { throw Untranslatable("ENV with a computed name") }
            if Credentials.isCredentialName(name) || value.symbolText.map(Credentials.looksLikeCredential) == true {
                throw Untranslatable("sets the secret \(name) for the rest of the lane: give it to the lane as a declared secret instead")
            }
            let right = try expression(value)
            guard let text = right.asString else { throw Untranslatable("ENV set to a value that is not text") }
            throw Untranslatable("sets \(name) for the rest of the lane: wrap the steps that need it in `try await withEnvironment([\(SwiftText.literal(name)): \(text)]) { ... }`")
        default:
            throw Untranslatable("assignment to something other than a local variable")
        }
    }


    /// A constant no top-level assignment declares, or an `@name`/`$name` whose Swift name no plain local of the lane takes.
    func isLaneVariable(_ name: String) -> Bool {
        guard globals[name] == nil, !sharedNames.contains(name) else { return false }
        guard let sigil = name.first, sigil == "@" || sigil == "$" else { return true }
        return !lane.assignedLocals.contains(String(name.dropFirst())) && globals[String(name.dropFirst())] == nil
    }

    private mutating func translateCase(subject: RubyNode?, whens: [RubyWhen], otherwise: [RubyNode]?, line: Int,
                                        into emitter: inout LanefileEmitter) throws {
        guard let subject else {
            // `case when cond` is an if/else chain.
            var chain: RubyNode? = otherwise.map { .sequence($0, SourcePosition(line: line, column: 1)) }
            for when in whens.reversed() {
                let test = when.values.dropFirst().reduce(when.values[0]) { .binary("||", $0, $1, $1.position) }
                chain = .ifNode(test, when.body, chain.map { [$0] }, test.position)
            }
            if let chain { try translateStatement(chain, into: &emitter) }
            return
        }
        let value = try expression(subject)
        let text: String
        switch value.kind {
        case .string, .optionalString: text = value.code
        case .int: text = value.code
        default:
            guard let converted = value.asString else { throw Untranslatable("`case` on a value that is not text") }
            text = converted
        }
        emitWithPrelude("switch \(text) {", line: line, into: &emitter)
        for when in whens {
            let patterns = try when.values.map { node -> String in
                if case .regex = node { throw Untranslatable("`when` with a regular expression") }
                let pattern = try literalPattern(node)
                return pattern
            }
            emitter.emit("case \(patterns.joined(separator: ", ")):", source: when.values.first?.position.line ?? line)
            nestedBlock(when.body.isEmpty ? [] : when.body, into: &emitter)
            if when.body.isEmpty { emitter.emit("    break", source: line) }
        }
        emitter.emit("default:", source: line)
        if let otherwise, !otherwise.isEmpty {
            nestedBlock(otherwise, into: &emitter)
        } else {
            emitter.emit("    break", source: line)
        }
        emitter.emit("}", source: line)
    }

    private func literalPattern(_ node: RubyNode) throws -> String {
        switch node {
        case .string, .symbol:
            guard let text = node.symbolText else { throw Untranslatable("`when` with an interpolated string") }
            return SwiftText.literal(text)
        case .integer(let digits, _): return digits
        case .nilValue: return "nil"
        default: throw Untranslatable("`when` with a value that is not a literal")
        }
    }

    // MARK: Calls as statements

    private mutating func translateCallStatement(_ call: RubyCall, line: Int, into emitter: inout LanefileEmitter) throws {
        // Blocks of Ruby methods: `[...].each do |x|`.
        if let receiver = call.receiver, call.name == "each" || call.name == "each_with_index", let block = call.block {
            let values = try expression(receiver)
            guard values.kind == .strings, let name = block.parameters.first else { throw Untranslatable("`each` over something other than a list of strings") }
            if call.name == "each_with_index" {
                let index = block.parameters.count > 1 ? block.parameters[1] : "_"
                emitWithPrelude("for (\(index == "_" ? "_" : swiftIdentifier(index)), \(swiftIdentifier(name))) in \(values.code).enumerated() {", line: line, into: &emitter)
                nestedBlock(block.body, into: &emitter, declaring: [name: .string, index: .int])
            } else {
                emitWithPrelude("for \(swiftIdentifier(name)) in \(values.code) {", line: line, into: &emitter)
                nestedBlock(block.body, into: &emitter, declaring: [name: .string])
            }
            emitter.emit("}", source: line)
            return
        }
        if case .constant("Dir", _)? = call.receiver, call.name == "chdir", let block = call.block {
            guard let path = call.arguments.first?.symbolText else { throw Untranslatable("Dir.chdir to a computed folder") }
            let saved = lane.shellDirectory
            lane.shellDirectory = StatementPaths.join(saved, path)
            emitter.emit("do {  // " + SwiftText.commentLine("Dir.chdir(\(SwiftText.literal(path))): sh runs in \(lane.shellDirectory)"), source: line)
            nestedBlock(block.body, into: &emitter)
            emitter.emit("}", source: line)
            lane.shellDirectory = saved
            return
        }
        if call.block != nil, call.receiver == nil, CatalogLookup.action(named: call.name) == nil, laneNames[call.name] == nil {
            throw Untranslatable("a Ruby block (`\(call.name) do ... end`)")
        }
        if call.receiver != nil {
            let value = try expression(.call(call), assigning: true)
            guard value.kind == .void || value.code.hasPrefix("try await") else {
                throw Untranslatable("a Ruby expression whose value is not used")
            }
            emitWithPrelude(value.code, line: line, into: &emitter)
            return
        }
        let value = try callValue(call, asStatement: true)
        emitWithPrelude(value.code, line: line, into: &emitter)
    }
}

enum StatementPaths {
    /// `fastlane` + `..` = `.`; an absolute path stays.
    static func join(_ base: String, _ path: String) -> String {
        if path.hasPrefix("/") { return path }
        var parts = base == "." ? [] : base.split(separator: "/").map(String.init)
        for part in path.split(separator: "/") {
            if part == ".." { if parts.isEmpty || parts.last == ".." { parts.append("..") } else { parts.removeLast() } }
            else if part != "." { parts.append(String(part)) }
        }
        return parts.isEmpty ? "." : parts.joined(separator: "/")
    }
}
