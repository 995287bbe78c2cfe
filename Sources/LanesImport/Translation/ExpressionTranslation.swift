import LanesRuntime

extension FastfileTranslator {
    /// A Ruby expression as Swift. `assigning`: the right side of an assignment, where a step call
    /// stays in place instead of being hoisted before the statement.
    mutating func expression(_ node: RubyNode, assigning: Bool = false, optionalRead: Bool = false) throws -> SwiftValue {
        switch node {
        case .string(let parts, let position):
            // A credential written as a literal is read from a declared secret, never copied.
            if parts.count == 1, case .text(let text) = parts[0], Credentials.looksLikeCredential(text) {
                return credentialSecret(Credentials.nameForValue(text, place: lane.name), line: position.line, origin: "a literal")
            }
            return try stringValue(parts)
        case .symbol(let text, _):
            return .literal(text)
        case .integer(let digits, _):
            return SwiftValue(digits, .int)
        case .float(let digits, _):
            return SwiftValue(digits, .double)
        case .bool(let value, _):
            return SwiftValue(value ? "true" : "false", .bool)
        case .nilValue:
            return SwiftValue("nil", .nilLiteral)
        case .array(let items, _):
            if items.isEmpty { return SwiftValue("[String]()", .strings) }
            let strings = try items.map { item -> String in
                let value = try expression(item)
                guard let text = value.asString else { throw Untranslatable("a list of values that are not all text") }
                return text
            }
            return SwiftValue("[" + strings.joined(separator: ", ") + "]", .strings)
        case .command(let parts, let position):
            guard case .string(let shellParts, _) = shellReferences(.string(parts, position)) else { throw Untranslatable("a command") }
            let command = try stringValue(shellParts)
            lane.usesFastlane = lane.usesFastlane || false
            let directory = lane.shellDirectory == "." ? "" : ", directory: \(SwiftText.literal(lane.shellDirectory))"
            return try hoist(SwiftValue("try await sh(\"sh\", \"-c\", \(command.code)\(directory)).text", .string), assigning: assigning)
        case .name(let name, let position):
            if let kind = lane.local(name) { return SwiftValue(swiftIdentifier(name), kind) }
            if name == lane.laneParameter { return SwiftValue("lane.name", .string) }
            if name == lane.errorParameter { return SwiftValue("\"\\(error)\"", .string) }
            if let kind = globals[name] { return globalValue(name, kind: kind, fallback: swiftIdentifier(camelCase(name))) }
            return try callValue(RubyCall(receiver: nil, name: name, arguments: [], keywords: [], block: nil, position: position,
                                          hasParentheses: false, safeNavigation: false), assigning: assigning)
        case .index(let base, let keys, _):
            return try indexValue(base: base, keys: keys, optionalRead: optionalRead)
        case .call(let call):
            return try methodValue(call, assigning: assigning, optionalRead: optionalRead)
        case .binary(let op, let left, let right, _):
            return try binaryValue(op, left, right)
        case .unary("!", let operand, _):
            return SwiftValue("!(\(try condition(operand)))", .bool)
        case .unary("-", let operand, _):
            let value = try expression(operand)
            guard value.kind == .int || value.kind == .double else { throw Untranslatable("negating a value that is not a number") }
            return SwiftValue("-\(value.code)", value.kind)
        case .ternary(let test, let then, let otherwise, _):
            let condition = try self.condition(test)
            let a = try expression(then), b = try expression(otherwise)
            if a.kind == b.kind { return SwiftValue("(\(condition) ? \(a.code) : \(b.code))", a.kind) }
            if let x = a.asString, let y = b.asString { return SwiftValue("(\(condition) ? \(x) : \(y))", .string) }
            if a.kind == .nilLiteral, b.kind == .string { return SwiftValue("(\(condition) ? nil : \(b.code) as String?)", .optionalString) }
            if b.kind == .nilLiteral, a.kind == .string { return SwiftValue("(\(condition) ? \(a.code) as String? : nil)", .optionalString) }
            throw Untranslatable("a conditional whose branches have different types")
        case .instanceVariable(let name, _), .globalVariable(let name, _):
            if sharedNames.contains(name) { return try sharedRead(name) }
            // One the lane itself assigned reads like a local; one set elsewhere (another lane, before_all) is unknown here.
            if let kind = lane.local(name) { return SwiftValue(swiftIdentifier(name), kind) }
            if let kind = globals[name] { return globalValue(name, kind: kind, fallback: swiftIdentifier(name)) }
            throw Untranslatable("\(name), which this lane reads before (or without) assigning it")
        case .constant(let name, _):
            // A constant the lane itself assigned (`BUILD_NUMBER = options[:build]`) reads like a local.
            if let kind = lane.local(name) { return SwiftValue(swiftIdentifier(name), kind) }
            if let kind = globals[name] { return globalValue(name, kind: kind, fallback: swiftIdentifier(name)) }
            throw Untranslatable("the Ruby constant \(name)")
        default:
            throw Untranslatable("a Ruby expression the importer does not translate")
        }
    }

    /// A top-level constant; what it reads from the environment is declared on the lane reading it.
    mutating func globalValue(_ name: String, kind: SwiftValue.Kind, fallback: String) -> SwiftValue {
        if let reads = globalReads[name] {
            for variable in reads.environment { lane.declareEnvironment(variable, secret: false) }
            for variable in reads.secrets { lane.declareEnvironment(variable, secret: true) }
        }
        return SwiftValue(globalConstants[name] ?? fallback, kind)
    }

    /// A declared secret standing for a credential literal, as text (the Redactor masks it in the output).
    mutating func credentialSecret(_ name: String, line: Int, origin: String, asText: Bool = false) -> SwiftValue {
        recordSecretToCreate(name, line: line, origin: origin)
        if asText { return SwiftValue("(try secret(\(SwiftText.literal(name))).value)", .string) }
        return SwiftValue("(try secret(\(SwiftText.literal(name))))", .secret)
    }

    private mutating func stringValue(_ parts: [RubyStringPart]) throws -> SwiftValue {
        var code = "\""
        for part in parts {
            switch part {
            case .text(let text): code += SwiftText.literal(text).dropFirst().dropLast()
            case .code(let node):
                var value = try expression(node)
                if value.kind == .result("ShellResult") { value = SwiftValue("\(value.code).text", .string) }
                if case .result(let type) = value.kind, let text = FastlaneValues.resultText[type], type != "ShellResult" {
                    value = SwiftValue(value.code + text.accessor, text.kind)
                }
                guard let inner = value.interpolated else { throw Untranslatable("text built from a value that is not text") }
                code += "\\(\(inner))"
            }
        }
        return SwiftValue(code + "\"", .string)
    }

    /// A step call used inside a larger expression runs first, into a constant (Swift does not allow
    /// `await` in the right side of `&&`, `||` or `??`).
    private mutating func hoist(_ value: SwiftValue, assigning: Bool) throws -> SwiftValue {
        guard !assigning, value.code.contains("await") else { return value }
        lane.temporaries += 1
        let name = "value\(lane.temporaries)"
        prelude.append("let \(name) = \(value.code)")
        return SwiftValue(name, value.kind)
    }

    // MARK: ENV, options, lane_context

    private mutating func indexValue(base: RubyNode, keys: [RubyNode], optionalRead: Bool) throws -> SwiftValue {
        switch base {
        case .constant("ENV", _):
            guard keys.count == 1, let name = keys[0].symbolText else { throw Untranslatable("ENV with a computed name") }
            return environmentValue(name, optionalRead: optionalRead, fallback: nil)
        case .name(let name, _) where name == lane.optionsParameter:
            guard keys.count == 1, let key = keys[0].symbolText else { throw Untranslatable("options with a computed key") }
            return try laneOption(key, kind: optionalRead ? .optionalString : nil)
        case .name(let name, _) where name == lane.optionsDictionary:
            guard keys.count == 1, let key = keys[0].symbolText else { throw Untranslatable("options with a computed key") }
            return SwiftValue("\(swiftIdentifier(name))[\(SwiftText.literal(key))]", .optionalString)
        case .name("lane_context", _):
            guard keys.count == 1 else { throw Untranslatable("lane_context with several keys") }
            let key: String
            switch keys[0] {
            case .constant(let name, _): key = name.split(separator: ":").last.map(String.init) ?? name
            case .symbol(let name, _): key = name.uppercased()
            default: throw Untranslatable("lane_context with a computed key")
            }
            guard let shared = FastlaneValues.sharedValues[key] else {
                throw Untranslatable("lane_context[\(key)] has no typed counterpart in lanes yet")
            }
            guard let variable = lane.sharedResults[shared.stepID] else {
                throw Untranslatable("lane_context[\(key)] is set by \(shared.stepID), which this lane does not run before (in the same block)")
            }
            return SwiftValue(variable + shared.accessor, shared.kind)
        default:
            if case .call(let call) = base, call.name == "lane_context" {
                return try indexValue(base: .name("lane_context", call.position), keys: keys, optionalRead: optionalRead)
            }
            let value = try expression(base)
            if value.kind == .strings, keys.count == 1, case .integer(let digits, _) = keys[0] {
                if digits == "-1" { return SwiftValue("\(value.code).last", .optionalString) }
                if digits == "0" { return SwiftValue("\(value.code).first", .optionalString) }
            }
            throw Untranslatable("indexing a value the importer does not know")
        }
    }

    /// `ENV["X"]`: required and declared when the lane needs it; read with a default where Ruby
    /// tests it (`if ENV["X"]`, `ENV["X"] || "y"`, `ENV.fetch("X", "y")`).
    mutating func environmentValue(_ name: String, optionalRead: Bool, fallback: String?, asSecret: Bool = false) -> SwiftValue {
        if optionalRead || fallback != nil {
            return SwiftValue("(try env(\(SwiftText.literal(name)), default: \(fallback ?? "\"\"")))", .string)
        }
        let secret = looksSecret(name) || asSecret
        lane.declareEnvironment(name, secret: secret)
        // A secret stays a `Secret` wherever it goes (a local, a shared variable, a secret option): never text
        // that could reach a command line or a file.
        if secret { return SwiftValue("(try secret(\(SwiftText.literal(name))))", .secret) }
        return SwiftValue("(try env(\(SwiftText.literal(name))))", .string)
    }

    /// `options[:key]`: a typed lane option, declared once per lane (String? unless its first use needs another type).
    mutating func laneOption(_ key: String, kind wanted: SwiftValue.Kind?) throws -> SwiftValue {
        guard !lane.isHook else { throw Untranslatable("options in a hook (lanes' hooks receive the lane, not its options)") }
        // Typed from every use of the option in the lane (OptionUses): a flag only when every use tests it.
        if !lane.options.contains(where: { $0.name == key }), let flag = lane.optionFlags[key] {
            _ = try laneOption(key, kind: flag ? .optionalBool : .optionalString, declaring: true)
        }
        return try laneOption(key, kind: wanted, declaring: false)
    }

    private mutating func laneOption(_ key: String, kind wanted: SwiftValue.Kind?, declaring: Bool) throws -> SwiftValue {
        if let existing = lane.options.first(where: { $0.name == key }) {
            let code = "(try lane[\(existing.constant)])"
            switch (existing.kind, wanted) {
            case (.optionalString, .optionalBool?):
                // fastlane reads `key:false` on the command line as false.
                return SwiftValue("\(code).map { $0 != \"false\" }", .optionalBool)
            case (.optionalBool, .optionalString?), (.optionalBool, nil):
                return SwiftValue("\(code).map { String($0) }", .optionalString)
            default:
                return SwiftValue(code, existing.kind)
            }
        }
        let kind = wanted ?? .optionalString
        let swiftType: String
        switch kind {
        case .optionalBool: swiftType = "Bool?"
        case .optionalString: swiftType = "String?"
        default: throw Untranslatable("a lane option of an unsupported type")
        }
        var constant = swiftIdentifier(camelCase(lane.name) + "Option" + camelCase(key).prefix(1).uppercased() + camelCase(key).dropFirst())
        while optionConstants.contains(constant) { constant += "_" }
        optionConstants.insert(constant)
        optionDeclarations.append("let \(constant) = LaneOption<\(swiftType)>(\(SwiftText.literal(key)), \(SwiftText.literal("options[:\(key)] of the Fastfile's lane \(lane.name)")))")
        lane.options.append((key, constant, kind))
        return SwiftValue("(try lane[\(constant)])", kind)
    }

    // MARK: Conditions and operators

    /// A Ruby condition as a Swift `Bool` expression, with Ruby's truthiness (only nil and false are false).
    mutating func condition(_ node: RubyNode) throws -> String {
        switch node {
        case .binary(let op, let left, let right, _) where op == "&&" || op == "||":
            // A chain `a && b && c ...` leans left as deep as it is long: read in a loop.
            var terms: [RubyNode] = [right]
            var leftmost = left
            while case .binary(op, let inner, let term, _) = leftmost {
                terms.append(term)
                leftmost = inner
            }
            var code = try condition(leftmost)
            for term in terms.reversed() { code = Self.autoclosure(code, op, try condition(term)) }
            return code
        case .unary("!", let operand, _):
            return "!(\(try condition(operand)))"
        case .index(let base, _, _):
            if case .name(let name, _) = base, name == lane.optionsParameter {
                let value = try indexOption(node, wanted: .optionalBool)
                return value.kind == .optionalBool ? "\(value.code) == true" : "\(value.code) != nil"
            }
            if case .name(let name, _) = base, name == lane.optionsDictionary {
                // Passed on as text: `key:false` stays false, as fastlane reads it.
                let value = try expression(node)
                return "\(value.code).map { $0 != \"false\" } == true"
            }
            let value = try expression(node, optionalRead: true)
            return try truthiness(value)
        case .call(let call) where call.name == "fetch":
            let value = try expression(node, optionalRead: true)
            return try truthiness(value)
        default:
            let value = try expression(node, optionalRead: true)
            return try truthiness(value)
        }
    }

    private mutating func indexOption(_ node: RubyNode, wanted: SwiftValue.Kind) throws -> SwiftValue {
        guard case .index(_, let keys, _) = node, keys.count == 1, let key = keys[0].symbolText else {
            throw Untranslatable("options with a computed key")
        }
        return try laneOption(key, kind: wanted)
    }

    private func truthiness(_ value: SwiftValue) throws -> String {
        switch value.kind {
        case .bool: return value.code
        case .optionalBool: return "\(value.code) == true"
        case .optionalString: return "\(value.code) != nil"
        case .string where value.code.hasPrefix("(try env("): return "!\(value.code).isEmpty"
        case .string, .int, .double, .strings: return "true"
        case .nilLiteral: return "false"
        case .result(let type) where type.hasSuffix("?"): return "\(value.code) != nil"
        default: throw Untranslatable("a condition on a value the importer does not know")
        }
    }

    private mutating func binaryValue(_ op: String, _ left: RubyNode, _ right: RubyNode) throws -> SwiftValue {
        switch op {
        case "&&", "||":
            // `ENV["X"] || "default"` and `options[:x] || "default"`: a fallback, not a Boolean.
            // `options[:release] || false` is a flag with a default, not text.
            if case .bool = right { return SwiftValue(Self.autoclosure(try condition(left), op, try condition(right)), .bool) }
            if op == "||", let fallback = try? expression(right), let fallbackText = fallback.asString {
                if case .index(.constant("ENV", _), let keys, _) = left, let name = keys.first?.symbolText {
                    return environmentValue(name, optionalRead: false, fallback: fallbackText)
                }
                let value = try expression(left, optionalRead: true)
                if value.kind == .optionalString { return SwiftValue(Self.autoclosure(value.code, "??", fallbackText), .string) }
                if case .result(let type) = value.kind, type == "String?" { return SwiftValue(Self.autoclosure(value.code, "??", fallbackText), .string) }
            }
            return SwiftValue(Self.autoclosure(try condition(left), op, try condition(right)), .bool)
        case "==", "!=":
            let a = try expression(left, optionalRead: true), b = try expression(right, optionalRead: true)
            if let (x, y) = comparable(a, b) { return SwiftValue("(\(x) \(op) \(y))", .bool) }
            throw Untranslatable("comparing values of different types")
        case "===":
            // On text, numbers, true/false and nil, Ruby's `===` is `==` (on a class, range or regex it is not).
            let a = try expression(left, optionalRead: true)
            guard [.string, .optionalString, .int, .bool].contains(a.kind) else { throw Untranslatable("the operator === on this value") }
            let b = try expression(right, optionalRead: true)
            if let (x, y) = comparable(a, b) { return SwiftValue("(\(x) == \(y))", .bool) }
            throw Untranslatable("comparing values of different types")
        case "<", "<=", ">", ">=":
            let a = try expression(left), b = try expression(right)
            guard a.kind == b.kind, a.kind == .int || a.kind == .double || a.kind == .string else { throw Untranslatable("ordering values that are not numbers") }
            return SwiftValue("(\(a.code) \(op) \(b.code))", .bool)
        case "+":
            return try sumValue(left, right)
        case "-", "*":
            let a = Self.numeric(try expression(left)), b = Self.numeric(try expression(right))
            guard a.kind == .int && b.kind == .int else { throw Untranslatable("arithmetic on values that are not numbers") }
            return SwiftValue("(\(a.code) \(op) \(b.code))", .int)
        case "=~", "!~":
            throw Untranslatable("a regular expression match")
        default:
            throw Untranslatable("the operator \(op)")
        }
    }

    /// `a + b + c ...`, a tree leaning left as deep as it has terms, read in a loop (never a call per
    /// term) and written flat: numbers as one sum, text as one `joined()` list (which Swift type-checks
    /// in linear time, where a long `+` chain of strings is too complex for it).
    private mutating func sumValue(_ left: RubyNode, _ right: RubyNode) throws -> SwiftValue {
        var terms: [RubyNode] = [right]
        var leftmost = left
        while case .binary("+", let inner, let term, _) = leftmost {
            terms.append(term)
            leftmost = inner
        }
        terms.append(leftmost)
        terms.reverse()
        var values: [SwiftValue] = []
        values.reserveCapacity(terms.count)
        for term in terms { values.append(try expression(term)) }
        // A result fastlane returns as a number, in arithmetic with numbers.
        if values.contains(where: { $0.kind == .int }) { values = values.map(Self.numeric) }
        if values.allSatisfy({ $0.kind == .int }) {
            return SwiftValue("(" + values.map(\.code).joined(separator: " + ") + ")", .int)
        }
        if values.allSatisfy({ $0.kind == .strings }) {
            return SwiftValue("(" + values.map(\.code).joined(separator: " + ") + ")", .strings)
        }
        // Ruby adds text to text only: the first term is text, and no later one is a number.
        guard values[0].kind == .string || values[0].kind == .result("String"),
              !values.dropFirst().contains(where: { $0.kind == .int }) else {
            throw Untranslatable("`+` on values the importer cannot type")
        }
        var texts: [String] = []
        for value in values {
            guard let text = value.asString else { throw Untranslatable("`+` on values the importer cannot type") }
            texts.append(text)
        }
        if texts.count == 2 { return SwiftValue("(\(texts[0]) + \(texts[1]))", .string) }
        return SwiftValue("[" + texts.joined(separator: ", ") + "].joined()", .string)
    }

    /// A step result fastlane's action returns as a number, as an `Int`; any other value as it is.
    static func numeric(_ value: SwiftValue) -> SwiftValue {
        guard case .result(let type) = value.kind, let number = FastlaneValues.resultNumber[type] else { return value }
        return SwiftValue("(try requireValue(Int(\(value.code)\(number.accessor)), \(SwiftText.literal("\(number.action) as a whole number"))))", .int)
    }

    /// `a || b`, `a && b`, `a ?? b`: Swift's right side is an autoclosure, so a `try` inside it
    /// needs a `try` covering the whole expression.
    static func autoclosure(_ left: String, _ op: String, _ right: String) -> String {
        right.contains("try ") ? "(try \(left) \(op) \(right))" : "(\(left) \(op) \(right))"
    }

    private func comparable(_ a: SwiftValue, _ b: SwiftValue) -> (String, String)? {
        let textual: Set<SwiftValue.Kind> = [.string, .optionalString, .result("String"), .result("String?")]
        if textual.contains(a.kind) && textual.contains(b.kind) { return (a.code, b.code) }
        if a.kind == b.kind, [.int, .bool, .double].contains(a.kind) { return (a.code, b.code) }
        if a.kind == .nilLiteral, b.kind == .optionalString || b.kind == .optionalBool { return (b.code, "nil") }
        if b.kind == .nilLiteral, a.kind == .optionalString || a.kind == .optionalBool { return (a.code, "nil") }
        if (a.kind == .bool || a.kind == .optionalBool) && (b.kind == .bool || b.kind == .optionalBool) { return (a.code, b.code) }
        if a.kind == .optionalBool, b.kind == .string, let text = ["\"true\"": "true", "\"false\"": "false"][b.code] { return (a.code, text) }
        if textual.contains(a.kind), b.kind == .int { return (a.code, "\"\\(\(b.code))\"") }
        if a.kind == .int, textual.contains(b.kind) { return ("\"\\(\(a.code))\"", b.code) }
        return nil
    }

    // MARK: Methods with a receiver

    private mutating func methodValue(_ call: RubyCall, assigning: Bool, optionalRead: Bool) throws -> SwiftValue {
        guard let receiver = call.receiver else { return try callValue(call, assigning: assigning) }
        if case .constant("ENV", _) = receiver {
            if ["key?", "has_key?", "include?"].contains(call.name), let name = call.arguments.first?.symbolText {
                return SwiftValue("!\(environmentValue(name, optionalRead: true, fallback: nil).code).isEmpty", .bool)
            }
            guard call.name == "fetch", let name = call.arguments.first?.symbolText else { throw Untranslatable("ENV.\(call.name)") }
            if call.arguments.count > 1 {
                let fallback = try expression(call.arguments[1])
                guard let text = fallback.asString else { throw Untranslatable("ENV.fetch with a default that is not text") }
                return environmentValue(name, optionalRead: false, fallback: text)
            }
            if call.block != nil { throw Untranslatable("ENV.fetch with a block") }
            return environmentValue(name, optionalRead: optionalRead, fallback: nil)
        }
        if case .name(let name, _) = receiver, name == lane.optionsParameter {
            guard call.name == "fetch" || call.name == "[]", let key = call.arguments.first?.symbolText else {
                throw Untranslatable("options.\(call.name)")
            }
            let option = try laneOption(key, kind: nil)
            if call.arguments.count > 1 {
                let fallback = try expression(call.arguments[1])
                if option.kind == .optionalString, let text = fallback.asString { return SwiftValue(Self.autoclosure(option.code, "??", text), .string) }
                if option.kind == .optionalBool, fallback.kind == .bool { return SwiftValue(Self.autoclosure(option.code, "??", fallback.code), .bool) }
                throw Untranslatable("options.fetch with a default of another type")
            }
            return option
        }
        if case .constant("UI", _) = receiver { return try uiValue(call) }
        if case .name("other_action", _) = receiver {
            return try callValue(RubyCall(receiver: nil, name: call.name, arguments: call.arguments, keywords: call.keywords, block: call.block,
                                          position: call.position, hasParentheses: call.hasParentheses, safeNavigation: false), assigning: assigning)
        }
        if case .constant(let name, _) = receiver, name == "Actions" || name.hasPrefix("Fastlane") {
            if call.name == "lane_context" { throw Untranslatable("lane_context without a key") }
            throw Untranslatable("fastlane's internal API (\(name).\(call.name))")
        }
        // Paths: `File.dirname(File.expand_path(__dir__))` is the project folder, which is where the Lanefile is.
        if case .constant("File", _) = receiver, ["expand_path", "dirname", "basename"].contains(call.name), call.arguments.count == 1,
           let path = staticPath(call) {
            return .literal(path)
        }
        if case .constant("File", _) = receiver, call.name == "join", !call.arguments.isEmpty {
            let parts = try call.arguments.map { node -> String in
                let value = try expression(node)
                guard let text = value.interpolated else { throw Untranslatable("File.join of a value that is not text") }
                return "\\(\(text))"
            }
            return SwiftValue("\"" + parts.joined(separator: "/") + "\"", .string)
        }
        if case .constant(let name, _) = receiver, name == "File" || name == "Dir",
           ["exist?", "exists?", "file?", "directory?"].contains(call.name), call.arguments.count == 1 {
            // Ruby runs a lane in the fastlane folder (or where Dir.chdir moved it); the Lanefile's folder is the project.
            let path: String
            if let literal = call.arguments[0].symbolText {
                path = SwiftText.literal(StatementPaths.join(lane.shellDirectory, literal))
            } else {
                let value = try expression(call.arguments[0])
                guard let text = value.asString else { throw Untranslatable("\(name).\(call.name) of a value that is not text") }
                let base = lane.shellDirectory == "." ? "" : lane.shellDirectory + "/"
                path = "{ (path: String) in path.hasPrefix(\"/\") ? path : \(SwiftText.literal(base)) + path }(\(text))"
            }
            usesFoundation = true
            return SwiftValue("FileManager.default.fileExists(atPath: \(path))", .bool)
        }
        if case .constant(let name, _) = receiver {
            throw Untranslatable("the Ruby class \(name) (\(name).\(call.name))")
        }
        if case .name(let name, _) = receiver, name == lane.errorParameter, ["message", "to_s", "inspect", "error_info"].contains(call.name) {
            return SwiftValue("\"\\(error)\"", .string)
        }
        let base = try expression(receiver, optionalRead: optionalRead || ["nil?", "empty?", "to_s"].contains(call.name))
        var text = base
        if case .result(let type) = base.kind, let access = FastlaneValues.resultText[type] {
            text = SwiftValue(base.code + access.accessor, access.kind)
        }
        if ["freeze", "dup", "to_sym"].contains(call.name), call.arguments.isEmpty { return text }
        if text.kind == .optionalString, !["nil?", "to_s", "empty?"].contains(call.name) {
            text = SwiftValue("(\(text.code) ?? \"\")", .string)
        }
        switch (call.name, text.kind) {
        case ("nil?", .optionalString), ("nil?", .optionalBool): return SwiftValue("(\(text.code) == nil)", .bool)
        case ("nil?", .string): return SwiftValue(text.code.hasPrefix("(try env(") ? "\(text.code).isEmpty" : "false", .bool)
        case ("empty?", .string), ("empty?", .strings): return SwiftValue("\(text.code).isEmpty", .bool)
        case ("empty?", .optionalString): return SwiftValue("(\(text.code) ?? \"\").isEmpty", .bool)
        case ("to_s", .string), ("strip", .string), ("chomp", .string), ("to_str", .string): return text
        case ("to_s", .optionalString): return SwiftValue("(\(text.code) ?? \"\")", .string)
        case ("to_s", .int), ("to_s", .double), ("to_s", .bool): return SwiftValue("String(\(text.code))", .string)
        case ("to_i", .string): return SwiftValue("(Int(\(text.code)) ?? 0)", .int)
        case ("to_i", .int): return text
        case ("downcase", .string): return SwiftValue("\(text.code).lowercased()", .string)
        case ("upcase", .string): return SwiftValue("\(text.code).uppercased()", .string)
        case ("include?", .string), ("include?", .strings):
            let other = try argument(call, 0)
            guard let needle = other.asString else { throw Untranslatable("include? with a value that is not text") }
            return SwiftValue("\(text.code).contains(\(needle))", .bool)
        case ("start_with?", .string), ("end_with?", .string):
            let other = try argument(call, 0)
            guard let needle = other.asString else { throw Untranslatable("\(call.name) with a value that is not text") }
            return SwiftValue("\(text.code).\(call.name == "start_with?" ? "hasPrefix" : "hasSuffix")(\(needle))", .bool)
        case ("split", .string):
            let separator = call.arguments.isEmpty ? SwiftValue.literal(" ") : try argument(call, 0)
            guard separator.kind == .string, separator.code.count == 3 || separator.code == "\"\\n\"" else { throw Untranslatable("split on more than one character") }
            return SwiftValue("\(text.code).split(separator: \(separator.code)).map(String.init)", .strings)
        case ("join", .strings):
            let separator = call.arguments.isEmpty ? SwiftValue.literal("") : try argument(call, 0)
            return SwiftValue("\(text.code).joined(separator: \(separator.code))", .string)
        case ("count", .strings), ("length", .strings), ("size", .strings), ("length", .string), ("count", .string), ("size", .string):
            return SwiftValue("\(text.code).count", .int)
        case ("first", .strings), ("last", .strings): return SwiftValue("\(text.code).\(call.name)", .optionalString)
        case ("to_i", .result), ("to_s", .result):
            throw Untranslatable("\(call.name) on a step result")
        default:
            throw Untranslatable("the Ruby method .\(call.name)")
        }
    }

    /// A path Ruby computes from literals only, relative to the project folder.
    private func staticPath(_ call: RubyCall) -> String? {
        let inner: String?
        switch call.arguments[0] {
        case .call(let nested) where nested.receiver.map({ if case .constant("File", _) = $0 { true } else { false } }) == true
            && nested.arguments.count == 1:
            inner = staticPath(nested)
        default:
            inner = call.arguments[0].symbolText
        }
        guard let path = inner else { return nil }
        switch call.name {
        case "expand_path": return path.hasPrefix("/") || path == "fastlane" || path.hasPrefix("fastlane/") ? path : StatementPaths.join("fastlane", path)
        case "dirname":
            let parent = StatementPaths.join(path, "..")
            return parent
        default: return String(path.split(separator: "/").last ?? "")
        }
    }

    private mutating func argument(_ call: RubyCall, _ index: Int) throws -> SwiftValue {
        guard call.arguments.count > index else { throw Untranslatable("\(call.name) without its argument") }
        return try expression(call.arguments[index])
    }

    /// `UI.message`, `UI.important`, `UI.success`, `UI.header`: echo; `UI.user_error!`, `UI.crash!`: fail.
    private mutating func uiValue(_ call: RubyCall) throws -> SwiftValue {
        let message = try call.arguments.first.map { try expression($0) } ?? .literal("")
        guard let text = message.asString ?? (message.kind == .optionalString ? "(\(message.code) ?? \"\")" : nil) else {
            throw Untranslatable("UI.\(call.name) with a value that is not text")
        }
        switch call.name {
        case "message", "success", "important", "header", "verbose", "command", "command_output", "deprecated", "error":
            let prefix = ["important": "⚠️ ", "error": "❌ ", "success": "✅ "][call.name] ?? ""
            let line = prefix.isEmpty ? text : "\(SwiftText.literal(prefix)) + \(text)"
            return SwiftValue("try echo(\(line))", .void)
        case "user_error!", "crash!", "build_failure!", "test_failure!", "abort_with_message!":
            return SwiftValue("try fail(\(text))", .void)
        case "confirm", "input", "select", "password", "interactive?":
            throw Untranslatable("UI.\(call.name) asks the user; lanes runs unattended (use a lane option)")
        default:
            throw Untranslatable("UI.\(call.name)")
        }
    }
}
