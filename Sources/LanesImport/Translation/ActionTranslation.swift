import LanesRuntime

extension FastfileTranslator {
    /// A call without a receiver: a fastlane action, another lane, or one of Ruby's own helpers.
    mutating func callValue(_ call: RubyCall, assigning: Bool = false, asStatement: Bool = false) throws -> SwiftValue {
        let line = call.position.line
        switch call.name {
        case "puts", "print", "p", "pp", "echo", "say":
            let node = call.arguments.first ?? call.keyword("message") ?? call.keyword("text")
            let message = try node.map { try expression($0) } ?? .literal("")
            // A secret prints as the mask (Secret's description), as everything lanes prints shows it.
            guard let text = message.asString ?? (message.kind == .optionalString ? "(\(message.code) ?? \"\")" : nil)
                    ?? (message.kind == .secret ? "\"\\(\(message.code))\"" : nil) else {
                throw Untranslatable("\(call.name) with a value that is not text")
            }
            record(call.name, line: line, .step, "echo(...)")
            return SwiftValue("try echo(\(text))", .void)
        case "raise", "fail", "abort":
            let message = try call.arguments.last.map { try expression($0) } ?? .literal("the lane failed")
            guard let text = message.asString else { throw Untranslatable("raise with a value that is not text") }
            return SwiftValue("try fail(\(text))", .void)
        case "sh":
            return try shellCall(call, assigning: assigning, asStatement: asStatement)
        case "is_ci", "is_ci?":
            record(call.name, line: line, .step, "isCI")
            return SwiftValue("isCI", .bool)
        case "sleep":
            guard let seconds = call.arguments.first, case .integer(let digits, _) = seconds else { throw Untranslatable("sleep for a computed time") }
            return SwiftValue("try await Task.sleep(for: .seconds(\(digits)))", .void)
        case "lane_context":
            throw Untranslatable("lane_context without a key")
        default:
            break
        }
        if let target = laneNames[call.name] {
            guard asStatement else { throw Untranslatable("uses the value a lane returns; lanes' lanes return nothing") }
            if !lane.calledLanes.contains(target) { lane.calledLanes.append(target) }
            var options: [String] = []
            var passed: [String] = []
            // `other_lane(options)`, `otherLane(options: options)`: the caller's options go on, as in fastlane.
            let passing = call.arguments.contains { isOptionsParameter($0) } || call.keywords.contains { $0.key.symbolText == "options" && isOptionsParameter($0.value) }
            if passing {
                passed = try passedOptionEntries(laneOptionKeys[target] ?? [])
            } else if !positionalArguments(call).isEmpty {
                throw Untranslatable("a lane called with positional arguments")
            }
            for pair in call.keywords + hashArguments(call) where !(pair.key.symbolText == "options" && isOptionsParameter(pair.value)) {
                guard let key = pair.key.symbolText else { throw Untranslatable("a lane called with a computed option name") }
                let value: SwiftValue
                if let text = pair.value.symbolText, case .string = pair.value, !text.isEmpty, Credentials.isCredentialName(key) {
                    value = credentialSecret(Credentials.environmentName(key), line: pair.key.position.line, origin: "option \(key) of lane \(call.name)", asText: true)
                } else {
                    value = try expression(pair.value)
                }
                guard let text = value.asString ?? (value.kind == .optionalString ? "\(value.code) ?? \"\"" : nil)
                    ?? (value.kind == .optionalBool ? "String(\(value.code) ?? false)" : nil) else {
                    throw Untranslatable("a lane called with an option that is not text")
                }
                options.append("\(SwiftText.literal(key)): \(text)")
            }
            if passing {
                usesPassedOptions = true
                let entries = passed.filter { entry in !options.contains { $0.hasPrefix(entry.prefix { $0 != ":" } + ":") } } + options
                return SwiftValue("try await callLane(\(SwiftText.literal(target)), passedOptions([\(entries.isEmpty ? ":" : entries.joined(separator: ", "))]))", .void)
            }
            return SwiftValue("try await callLane(\(SwiftText.literal(target))\(options.isEmpty ? "" : ", [" + options.joined(separator: ", ") + "]"))", .void)
        }
        if let helper = helpers[call.name] {
            guard asStatement else { throw Untranslatable("uses the value the Ruby method `\(call.name)` returns (its Swift function returns nothing)") }
            return try helperCall(call, helper.parameters, helper.kinds, environment: helper.environment, secrets: helper.secrets)
        }
        if helperMethods.contains(call.name) {
            throw Untranslatable("calls `\(call.name)`, a Ruby method the Fastfile defines: write it as a Swift function")
        }
        if Self.rubyMethods.contains(call.name) {
            throw Untranslatable("the Ruby method `\(call.name)`")
        }
        guard let action = CatalogLookup.action(named: call.name) else {
            let reason = FastlaneBuiltInActions.names.contains(call.name)
                ? "a fastlane action lanes has no step for; it runs through fastlane"
                : "not one of fastlane's own actions (a plugin or the team's own action?); it runs through fastlane"
            return try fastlaneCall(call, reason: reason, asStatement: asStatement)
        }
        switch action.mapping {
        case .step(let id, let renames, let unsupported, _):
            guard CatalogLookup.steps[id] != nil else {
                return try fastlaneCall(call, reason: "lanes has no step \(id) yet", asStatement: asStatement)
            }
            let value = try stepCall(call, action: action, stepID: id, renames: renames, unsupported: unsupported, asStatement: asStatement)
            return try assigning || asStatement ? value : hoisted(value)
        case .lanefile:
            return try lanefileCall(call, action: action, asStatement: asStatement)
        case .implicit(let reason):
            guard asStatement else { throw Untranslatable("uses the value of \(call.name), which lanes does by itself") }
            record(call.name, line: line, .implicit, reason)
            return SwiftValue("// " + SwiftText.commentLine("fastlane's `\(call.name)` is not needed: \(reason)."), .void)
        case .notSupported(let reason):
            if ["import_from_git", "import"].contains(action.name) {
                throw Untranslatable("`\(call.name)` loads lanes from elsewhere: \(reason)")
            }
            return try fastlaneCall(call, reason: reason, asStatement: asStatement)
        }
    }

    /// Text given at run time (a lane option, a variable) for a typed step option: a value the type does
    /// not take stops the lane naming the option, as fastlane's option check does, never a silent default.
    mutating func parsedOption(_ code: String, of action: String, _ option: String, _ parse: String) -> String {
        usesParsedOption = true
        return "(try parsedOption(\(code), \(SwiftText.literal("\(action)'s \(option)"))) { \(parse) })"
    }

    /// Whether `node` is the lane's (or a method's) options hash itself.
    func isOptionsParameter(_ node: RubyNode) -> Bool {
        guard case .name(let name, _) = node else { return false }
        return name == lane.optionsParameter || name == lane.optionsDictionary
    }

    /// `"key": value` entries (values `String?`) for the options `keys` a callee reads, taken from the
    /// caller's own options, which the caller declares so `lanes caller key:value` accepts them.
    mutating func passedOptionEntries(_ keys: [(name: String, flag: Bool)]) throws -> [String] {
        try keys.map { key in
            let value: SwiftValue
            if let dictionary = lane.optionsDictionary {
                value = SwiftValue("\(swiftIdentifier(dictionary))[\(SwiftText.literal(key.name))]", .optionalString)
            } else {
                if !lane.options.contains(where: { $0.name == key.name }), lane.optionFlags[key.name] == nil {
                    lane.optionFlags[key.name] = key.flag
                }
                value = try laneOption(key.name, kind: nil)
            }
            switch value.kind {
            case .optionalString: return "\(SwiftText.literal(key.name)): \(value.code)"
            case .optionalBool: return "\(SwiftText.literal(key.name)): \(value.code).map { String($0) }"
            case .string, .int, .bool: return "\(SwiftText.literal(key.name)): \(value.asString ?? value.code)"
            default: throw Untranslatable("passes the option \(key.name), whose value is not text")
            }
        }
    }

    private mutating func helperCall(_ call: RubyCall, _ parameters: [RubyMethod.Parameter], _ kinds: [SwiftValue.Kind],
                                     environment: [String], secrets: [String]) throws -> SwiftValue {
        if call.block != nil { throw Untranslatable("a Ruby method called with a block") }
        var positional = call.arguments[...]
        var arguments: [String] = []
        var keywords = call.keywords
        for (parameter, kind) in zip(parameters, kinds) {
            var node: RubyNode?
            if parameter.keyword {
                node = keywords.first { $0.key.symbolText == parameter.name }?.value
            } else {
                node = positional.popFirst()
                // `sign(type: "appstore")` for `def sign(options)`: Ruby gives the keywords to the hash parameter.
                if node == nil, kind == .dictionary, !keywords.isEmpty {
                    node = .hash(keywords, call.position)
                    keywords = []
                }
            }
            guard let node else {
                if parameter.defaultValue == nil { throw Untranslatable("`\(call.name)` called without \(parameter.name)") }
                continue
            }
            let code: String
            if kind == .dictionary {
                // The options hash of the caller, or a hash written at the call.
                if isOptionsParameter(node) {
                    usesPassedOptions = true
                    let entries = try passedOptionEntries(helperOptionKeys[call.name] ?? [])
                    code = "passedOptions([\(entries.isEmpty ? ":" : entries.joined(separator: ", "))])"
                } else if case .hash(let pairs, _) = node {
                    let entries = try pairs.map { pair -> String in
                        guard let key = pair.key.symbolText, let text = try expression(pair.value).asString else {
                            throw Untranslatable("`\(call.name)`'s \(parameter.name) with a value that is not text")
                        }
                        return "\(SwiftText.literal(key)): \(text)"
                    }
                    code = "[\(entries.isEmpty ? ":" : entries.joined(separator: ", "))]"
                } else {
                    throw Untranslatable("`\(call.name)`'s \(parameter.name) is not the lane's options or a hash")
                }
                arguments.append(parameter.keyword ? "\(swiftIdentifier(parameter.name)): \(code)" : code)
                continue
            }
            let value = try expression(node)
            switch kind {
            case .bool:
                guard value.kind == .bool else { throw Untranslatable("`\(call.name)`'s \(parameter.name) is not true or false") }
                code = value.code
            case .optionalString:
                guard let text = value.asString ?? (value.kind == .optionalString || value.kind == .nilLiteral ? value.code : nil) else {
                    throw Untranslatable("`\(call.name)`'s \(parameter.name) is not text")
                }
                code = text
            default:
                guard let text = value.asString ?? (value.kind == .optionalString ? "(\(value.code) ?? \"\")" : nil) else {
                    throw Untranslatable("`\(call.name)`'s \(parameter.name) is not text")
                }
                code = text
            }
            arguments.append(parameter.keyword ? "\(swiftIdentifier(parameter.name)): \(code)" : code)
        }
        guard positional.isEmpty, keywords.allSatisfy({ pair in parameters.contains { $0.keyword && $0.name == pair.key.symbolText } }) else {
            throw Untranslatable("`\(call.name)` called with arguments it does not declare")
        }
        for name in environment { lane.declareEnvironment(name, secret: false) }
        for name in secrets { lane.declareEnvironment(name, secret: true) }
        return SwiftValue("try await \(swiftIdentifier(call.name))(\(arguments.joined(separator: ", ")))", .void)
    }

    private mutating func hoisted(_ value: SwiftValue) throws -> SwiftValue {
        lane.temporaries += 1
        let name = "value\(lane.temporaries)"
        prelude.append("let \(name) = \(value.code)")
        return SwiftValue(name, value.kind)
    }

    /// A hash passed as the last positional argument (`gym({scheme: "App"})`).
    func hashArguments(_ call: RubyCall) -> [RubyPair] {
        if case .hash(let pairs, _)? = call.arguments.last { return pairs }
        return []
    }

    private func positionalArguments(_ call: RubyCall) -> [RubyNode] {
        if case .hash? = call.arguments.last { return Array(call.arguments.dropLast()) }
        return call.arguments
    }

    /// Whether the generated function has no default for the option (see LanefileFunctions.parameter).
    private static func isRequired(_ option: OptionInfo) -> Bool {
        !option.swiftType.hasSuffix("?") && !option.mayBeAbsent && option.environmentVariable == nil && option.spelling != .variadic
    }

    private static func takesOptional(_ option: OptionInfo) -> Bool {
        option.swiftType.hasSuffix("?") || option.mayBeAbsent || option.environmentVariable != nil
    }

    private mutating func stepCall(_ call: RubyCall, action: FastlaneAction, stepID: String, renames: [String: String],
                                   unsupported: [String: String], asStatement: Bool) throws -> SwiftValue {
        guard let info = CatalogLookup.steps[stepID] else { throw Untranslatable("no step \(stepID)") }
        let droppedBefore = report.droppedOptions.count
        let line = call.position.line
        if call.block != nil { throw Untranslatable("\(call.name) with a Ruby block") }
        var given: [String: String] = [:]
        var pairs = call.keywords + hashArguments(call)
        let written = Set(pairs.compactMap { $0.key.symbolText })
        // Defaults from the config file of the action (Gymfile, Matchfile, ...) and the Appfile.
        for pair in configuration.defaults[action.name] ?? [] where !written.contains(pair.key.symbolText ?? "") {
            pairs.append(pair)
        }
        for (key, steps) in FastlaneValues.appfileOptions where steps.contains(stepID) && !written.contains(key)
            && !pairs.contains(where: { $0.key.symbolText == key }) {
            // The Appfile's `for_lane` (or `for_platform`) value for this lane wins, as fastlane's AppfileConfig does.
            let scoped = configuration.laneAppfile[lane.name]?[key] ?? currentPlatform.flatMap { configuration.laneAppfile["platform " + $0]?[key] }
            if let scoped {
                pairs.append(RubyPair(key: .symbol(key, call.position), value: .string([.text(scoped)], call.position)))
            } else if globals[key] != nil {
                pairs.append(RubyPair(key: .symbol(key, call.position), value: .name(key, call.position)))
            }
        }
        for fallback in FastlaneValues.fastlaneDefaults[stepID] ?? [] where !pairs.contains(where: { $0.key.symbolText == fallback.option })
            && !(fallback.unless.map { unless in pairs.contains { $0.key.symbolText == unless } } ?? false) {
            pairs.append(RubyPair(key: .symbol(fallback.option, call.position), value: fallback.value))
        }
        for pair in pairs {
            guard let key = pair.key.symbolText else {
                drop("(computed)", of: call.name, line: line, reason: "an option name computed at run time")
                continue
            }
            // As `FastlaneAction.stepOption(for:)`, on the step's cached info: the map's rename, else the
            // option or one of its declared aliases; an option of fastlane's interface only is accepted.
            let found = renames[key].flatMap { info.option(named: $0) } ?? info.option(named: key)
            guard let option = found, option.name != "timeout" else {
                if info.definition.ignoredOptions[key] != nil { continue }
                // `api_key: api_key` (app_store_connect_api_key's result): lanes' App Store Connect steps use the key that step set.
                if key == "api_key", case .name(let local, _) = pair.value, lane.local(local) == .result("AppStoreConnectKeyInfo") { continue }
                drop(key, of: call.name, line: pair.key.position.line, reason: unsupported[key] ?? "the lanes step \(stepID) has no option \(key)")
                continue
            }
            let savedLane = lane
            let savedPrelude = prelude
            do {
                given[option.name] = try convert(pair.value, to: option, of: call.name)
            } catch let failure as Untranslatable {
                // A value the Fastfile wrote that cannot be translated stops the lane at the call: running the
                // action without it would do something else. A default from a config file or the Appfile is left out.
                guard !written.contains(key) else { throw Untranslatable("\(call.name)'s \(key): \(failure.reason)") }
                lane = savedLane
                prelude = savedPrelude
                drop(key, of: call.name, line: pair.key.position.line, reason: "its value: \(failure.reason)")
            }
        }
        var positional = positionalArguments(call)
        if let first = info.options.first(where: { $0.spelling == .unlabeled || $0.spelling == .variadic }), !positional.isEmpty, given[first.name] == nil {
            given[first.name] = try convert(positional.removeFirst(), to: first, of: call.name)
        }
        for _ in positional { drop("(positional)", of: call.name, line: line, reason: "a positional argument the step does not take") }
        if let missing = info.options.first(where: { Self.isRequired($0) && given[$0.name] == nil }) {
            return try fastlaneCall(call, reason: "the lanes step \(stepID) needs \(missing.name), which the Fastfile leaves to fastlane's defaults", asStatement: asStatement)
        }
        let arguments = info.options.compactMap { option -> String? in
            guard let code = given[option.name] else { return nil }
            return option.spelling == .labeled ? "\(option.swiftName): \(code)" : code
        }
        let function = info.definition.functionName
        let code = "try await \(function)(\(arguments.joined(separator: ", ")))"
        let dropped = report.droppedOptions[droppedBefore...].map(\.option)
        if dropped.isEmpty {
            record(call.name, line: line, .step, "\(function)(...)" + (call.name == stepID ? "" : " (step \(stepID))"))
        } else {
            record(call.name, line: line, .stepWithDroppedOptions,
                   "\(function)(...)" + (call.name == stepID ? "" : " (step \(stepID))") + " without " + dropped.joined(separator: ", "))
        }
        var resultType = info.resultType
        if resultType.hasPrefix("Optional<"), resultType.hasSuffix(">") { resultType = String(resultType.dropFirst(9).dropLast()) + "?" }
        let kind: SwiftValue.Kind = resultType == "Void" ? .void : .result(resultType)
        if asStatement, lane.wantsSharedResults, FastlaneValues.sharedValues.values.contains(where: { $0.stepID == stepID }) {
            let variable = swiftIdentifier(function + "Result" + (lane.sharedResults[stepID] == nil ? "" : "\(lane.temporaries + 1)"))
            lane.temporaries += 1
            lane.sharedResults[stepID] = variable
            return SwiftValue("let \(variable) = \(code)", .void)
        }
        return SwiftValue(code, kind)
    }

    /// A Ruby value as the Swift type of a step option.
    private mutating func convert(_ node: RubyNode, to option: OptionInfo, of action: String) throws -> String {
        // `"#{KEY}"` is KEY's own text: a secret read into a constant stays that secret.
        var node = node
        if case .string(let parts, _) = node, parts.count == 1, case .code(let inner) = parts[0] { node = inner }
        var type = option.swiftType
        if type.hasSuffix("?") { type.removeLast() }
        let optional = Self.takesOptional(option)
        if option.spelling == .variadic { type = "String" }
        // ENV straight into the option: a declared variable, or a declared secret for a secret option.
        if case .index(.constant("ENV", _), let keys, _) = node, let name = keys.first?.symbolText, type == "Secret" {
            return environmentValue(name, optionalRead: false, fallback: nil, asSecret: true).code
        }
        if case .call(let call) = node, call.name == "fetch", case .constant("ENV", _)? = call.receiver, type == "Secret",
           call.arguments.count == 1, let name = call.arguments.first?.symbolText {
            return environmentValue(name, optionalRead: false, fallback: nil, asSecret: true).code
        }
        // A credential written as a literal: read from a declared secret, never copied.
        if let text = node.symbolText, !text.isEmpty, type == "Secret" || type == "String",
           type == "Secret" || Credentials.isCredentialName(option.name) || Credentials.looksLikeCredential(text) {
            let name = option.environmentVariable ?? Credentials.derivedName(action: action, key: option.name)
            recordSecretToCreate(name, line: node.position.line, origin: "\(action)'s \(option.name)")
            return type == "Secret" ? "(try secret(\(SwiftText.literal(name))))" : "(try secret(\(SwiftText.literal(name))).value)"
        }
        if type == "Secret", let value = try? expression(node), value.kind == .secret { return value.code }
        if type == "Secret" {
            throw Untranslatable("a secret written in the Fastfile or computed; lanes reads secrets from the environment" +
                                 (option.environmentVariable.map { " (\($0))" } ?? ""))
        }
        if case .index(.name(let name, _), let keys, _) = node, name == lane.optionsParameter, let key = keys.first?.symbolText, optional {
            switch type {
            case "String": return try laneOption(key, kind: .optionalString).code
            case "Bool":
                // An option also used as text stays text; given to a flag it must read as one.
                if lane.optionFlags[key] == false || lane.options.contains(where: { $0.name == key && $0.kind == .optionalString }) {
                    return parsedOption(try laneOption(key, kind: .optionalString).code, of: action, option.name, "Bool(optionText: $0)")
                }
                return try laneOption(key, kind: .optionalBool).code
            default: break
            }
        }
        if let cases = FastlaneValues.enumCases[type] {
            if let text = node.symbolText {
                guard let name = cases[text] ?? cases[text.lowercased()] else { throw Untranslatable("\(SwiftText.literal(text)) is not a \(type) lanes knows") }
                return ".\(name)"
            }
            let value = try expression(node)
            guard optional else { throw Untranslatable("a computed \(type)") }
            switch value.kind {
            case .string, .optionalString: return parsedOption(value.code, of: action, option.name, "\(type)(optionText: $0)")
            default: throw Untranslatable("a \(type) from a value that is not text")
            }
        }
        switch type {
        case "String":
            let value = try expression(node)
            if let text = value.asString { return text }
            if optional, value.kind == .optionalString || value.kind == .result("String?") { return value.code }
            // fastlane stops when a required option gets nil; the step stops the same way, naming the option.
            if Self.isRequired(option), value.kind == .optionalString { return "try requireValue(\(value.code), \(SwiftText.literal("\(action)'s \(option.name)")))" }
            if case .result(let result) = value.kind, let access = FastlaneValues.resultText[result] {
                if access.kind == .string || optional && access.kind == .optionalString { return value.code + access.accessor }
            }
            if value.kind == .strings { return "\(value.code).joined(separator: \",\")" }
            // A secret-named variable given to a text option (supply's json_key: a key file's path):
            // its text, still a declared secret, which the runner keeps out of output and arguments.
            if value.kind == .secret { return "\(value.code).value" }
            throw Untranslatable("a value that is not text")
        case "Bool":
            if case .string = node, let text = node.symbolText, let flag = Bool(optionText: text) { return flag ? "true" : "false" }
            let value = try expression(node)
            switch value.kind {
            case .bool: return value.code
            case .optionalBool where optional: return value.code
            case .string where optional, .optionalString where optional:
                return parsedOption(value.code, of: action, option.name, "Bool(optionText: $0)")
            default: throw Untranslatable("a value that is not true or false")
            }
        case "Int", "Double":
            if let text = node.symbolText, (type == "Int" ? Int(text) != nil : Double(text) != nil) { return text }
            let value = try expression(node)
            if value.kind == .int || (type == "Double" && value.kind == .double) { return type == "Double" && value.kind == .int ? "Double(\(value.code))" : value.code }
            if optional, value.kind == .string || value.kind == .optionalString { return parsedOption(value.code, of: action, option.name, "\(type)($0)") }
            if optional, value.kind == .result("String") { return parsedOption(value.code, of: action, option.name, "\(type)($0)") }
            throw Untranslatable("a value that is not a number")
        case "[String]":
            // A hash for a list is name=value entries, as gradle's properties take them.
            if case .hash(let pairs, _) = node {
                let entries = try pairs.map { pair -> String in
                    guard let key = pair.key.symbolText else { throw Untranslatable("a hash with a computed key") }
                    if let text = pair.value.symbolText { return SwiftText.literal("\(key)=\(text)") }
                    guard let text = try expression(pair.value).asString else { throw Untranslatable("a hash value that is not text") }
                    return "\(SwiftText.literal(key + "=")) + \(text)"
                }
                return "[" + entries.joined(separator: ", ") + "]"
            }
            if let text = node.symbolText {
                return "[" + text.split(separator: ",").map { SwiftText.literal($0.trimmingSpaces) }.joined(separator: ", ") + "]"
            }
            let value = try expression(node)
            if value.kind == .strings { return value.code }
            if let text = value.asString { return "[\(text)]" }
            if optional, value.kind == .optionalString { return "\(value.code).map { [$0] }" }
            throw Untranslatable("a value that is not a list of text")
        case "ExportOptions", "ExportOptionsSource", "BuildSettingAssignments":
            // gym's export_options is a hash or the path of a plist (ExportOptionsSource takes both).
            if type == "ExportOptionsSource", let path = try? expression(node), let text = path.asString { return text }
            guard case .hash(let pairs, _) = node else { throw Untranslatable("\(option.name) that is not a hash written in the Fastfile") }
            return try dictionaryLiteral(pairs, nested: type != "BuildSettingAssignments")
        default:
            throw Untranslatable("a value of type \(type)")
        }
    }

    private mutating func dictionaryLiteral(_ pairs: [RubyPair], nested: Bool) throws -> String {
        if pairs.isEmpty { return "[:]" }
        let entries = try pairs.map { pair -> String in
            guard let key = pair.key.symbolText else { throw Untranslatable("a hash with a computed key") }
            let value: String
            switch pair.value {
            case .hash(let inner, _) where nested: value = try dictionaryLiteral(inner, nested: false)
            case .bool(let flag, _) where nested: value = flag ? "true" : "false"
            default:
                let translated = try expression(pair.value)
                guard let text = translated.asString else { throw Untranslatable("a hash value that is not text") }
                value = text
            }
            return "\(SwiftText.literal(key)): \(value)"
        }
        return "[" + entries.joined(separator: ", ") + "]"
    }

    // MARK: sh

    /// `sh("cmd arg")` runs through a shell in fastlane (one string), `sh("cmd", "arg")` does not;
    /// fastlane runs both in the fastlane folder.
    private mutating func shellCall(_ call: RubyCall, assigning: Bool, asStatement: Bool) throws -> SwiftValue {
        let line = call.position.line
        var parts = positionalArguments(call)
        if parts.isEmpty, let command = call.keyword("command") { parts = [command] }
        guard !parts.isEmpty else { throw Untranslatable("sh without a command") }
        var arguments: [String] = []
        if parts.count == 1 {
            if case .array(let items, _) = parts[0] { parts = items }
        }
        if parts.count == 1 { parts[0] = shellReferences(parts[0]) }
        if parts.count > 1, parts.contains(where: { secretVariable(in: $0) != nil }) {
            throw Untranslatable("a secret in a command's arguments: lanes never puts one on a command line (use \"$NAME\" in a sh -c string)")
        }
        let values = try parts.map { node -> String in
            let value = try expression(node)
            guard let text = value.asString else { throw Untranslatable("sh with an argument that is not text") }
            return text
        }
        arguments = values.count == 1 ? ["\"sh\"", "\"-c\"", values[0]] : values
        for pair in call.keywords + hashArguments(call) {
            guard let key = pair.key.symbolText, key != "command" else { continue }
            drop(key, of: "sh", line: line, reason: key == "log" ? "lanes always logs a step's command, with secrets masked"
                : key == "error_callback" ? "a failing command fails the step: wrap the call in do/catch to handle it"
                : "lanes' sh step has no option \(key)")
        }
        if call.block != nil { throw Untranslatable("sh with a block (it reads the exit status)") }
        record("sh", line: line, .step, "sh(...)")
        let directory = lane.shellDirectory == "." ? "" : ", directory: \(SwiftText.literal(lane.shellDirectory))"
        let code = "try await sh(\(arguments.joined(separator: ", "))\(directory))"
        let value = SwiftValue(code, .result("ShellResult"))
        if assigning { return SwiftValue(code + ".text", .string) }
        return asStatement ? value : try hoisted(SwiftValue(code + ".text", .string))
    }

    // MARK: Plain Lanefile code and fastlane

    private mutating func lanefileCall(_ call: RubyCall, action: FastlaneAction, asStatement: Bool) throws -> SwiftValue {
        let line = call.position.line
        switch action.name {
        case "echo":
            return try callValue(RubyCall(receiver: nil, name: "puts", arguments: call.arguments, keywords: call.keywords, block: nil,
                                          position: call.position, hasParentheses: true, safeNavigation: false), asStatement: asStatement)
        case "is_ci":
            record(call.name, line: line, .step, "isCI")
            return SwiftValue("isCI", .bool)
        case "ensure_env_vars":
            guard asStatement, let list = call.keyword("env_vars"), case .array(let items, _) = list else {
                throw Untranslatable("ensure_env_vars without a list of names")
            }
            var checks: [String] = []
            for item in items {
                guard let name = item.symbolText else { throw Untranslatable("ensure_env_vars with a computed name") }
                lane.declareEnvironment(name, secret: looksSecret(name))
                checks.append(looksSecret(name) ? "_ = try secret(\(SwiftText.literal(name)))" : "_ = try env(\(SwiftText.literal(name)))")
            }
            record(call.name, line: line, .step, "declared environment and secrets of the lane")
            return SwiftValue(checks.joined(separator: "\n"), .void)
        case "clean_cocoapods_cache":
            record(call.name, line: line, .step, "sh(\"pod\", \"cache\", \"clean\", \"--all\")")
            return SwiftValue("try await sh(\"pod\", \"cache\", \"clean\", \"--all\")", .void)
        default:
            return try fastlaneCall(call, reason: "lanes writes it as \(action.mapping.functionText); kept through fastlane for now", asStatement: asStatement)
        }
    }

    /// `sh("fastlane", "run", ACTION, "key:value", ...)`: the lane keeps working while fastlane is installed.
    /// Secret values are not put on a command line: such options are dropped and reported.
    mutating func fastlaneCall(_ call: RubyCall, reason: String, asStatement: Bool) throws -> SwiftValue {
        let line = call.position.line
        guard asStatement else {
            throw Untranslatable("uses the value `\(call.name)` returns (\(reason)); `fastlane run` cannot give it back")
        }
        if call.block != nil { throw Untranslatable("\(call.name) with a Ruby block") }
        guard positionalArguments(call).isEmpty else { throw Untranslatable("\(call.name) with positional arguments (`fastlane run` takes key:value)") }
        var arguments = ["\"fastlane\"", "\"run\"", SwiftText.literal(call.name)]
        for pair in call.keywords + hashArguments(call) {
            guard let key = pair.key.symbolText else { throw Untranslatable("\(call.name) with a computed option name") }
            if let secret = secretVariable(in: pair.value) {
                drop(key, of: call.name, line: pair.key.position.line,
                     reason: "its value is the secret \(secret), which lanes never puts on a command line: set the fastlane option's own environment variable instead")
                continue
            }
            if containsCredentialLiteral(pair.value, key: key) {
                let name = Credentials.derivedName(action: call.name, key: key)
                recordSecretToCreate(name, line: pair.key.position.line, origin: "\(call.name)'s \(key) (give it to the action through its own environment variable)",
                                     declared: false)
                drop(key, of: call.name, line: pair.key.position.line,
                     reason: "a credential written in the Fastfile: not copied, and lanes never puts one on a command line; "
                        + "set `\(call.name)`'s own environment variable for \(key) (`fastlane action \(call.name)` names it) from a secret such as \(name)")
                continue
            }
            arguments.append(try fastlaneArgument(key, pair.value))
        }
        lane.usesFastlane = true
        record(call.name, line: line, .fastlane, reason)
        return SwiftValue("try await sh(\(arguments.joined(separator: ", ")))", .void)
    }

    /// A shell command string with `#{ENV["SECRET"]}` replaced by `${SECRET}`: the shell reads the
    /// secret from its environment, so it never appears in a process's arguments. The secret is declared.
    mutating func shellReferences(_ node: RubyNode) -> RubyNode {
        guard case .string(let parts, let position) = node else { return node }
        return .string(parts.map { part in
            if case .code(.index(.constant("ENV", _), let keys, _)) = part, let name = keys.first?.symbolText, looksSecret(name) {
                lane.declareEnvironment(name, secret: true)
                return .text("${\(name)}")
            }
            // A local holding a declared secret: the shell reads the variable the secret came from.
            if case .code(let inner) = part, case .name(let local, _) = inner, lane.local(local) == .secret,
               let value = try? expression(inner), let name = Self.secretVariableName(value.code) {
                return .text("${\(name)}")
            }
            return part
        }, position)
    }

    /// `NAME` of the code `(try secret("NAME"))` the importer writes for a declared secret.
    static func secretVariableName(_ code: String) -> String? {
        guard code.hasPrefix("(try secret(\""), code.hasSuffix("\"))") else { return nil }
        let name = code.dropFirst(14).dropLast(3)
        guard !name.isEmpty, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" }) else { return nil }
        return String(name)
    }

    /// Whether a literal in `node` is a credential, by its value or by the name it is given under.
    func containsCredentialLiteral(_ node: RubyNode, key: String?) -> Bool {
        var found = false
        node.walk { inner in
            guard !found else { return }
            switch inner {
            case .string(let parts, _):
                for case .text(let text) in parts where Credentials.looksLikeCredential(text) { found = true }
                if let key, Credentials.isCredentialName(key), parts.contains(where: { if case .text(let text) = $0 { !text.isEmpty } else { false } }) {
                    found = true
                }
            case .hash(let pairs, _):
                for pair in pairs {
                    if let name = pair.key.symbolText, Credentials.isCredentialName(name), pair.value.symbolText?.isEmpty == false { found = true }
                }
            default: break
            }
        }
        return found
    }

    /// A credential literal the Lanefile reads from a secret instead: declared on the lane, listed in the report.
    mutating func recordSecretToCreate(_ name: String, line: Int, origin: String, declared: Bool = true) {
        if declared { lane.declareEnvironment(name, secret: true) }
        let place = lane.name.isEmpty ? origin : "\(origin) in \(lane.name)"
        if !report.secretsToCreate.contains(where: { $0.name == name && $0.line == line }) {
            report.secretsToCreate.append(ImportReport.SecretToCreate(name: name, line: line, origin: place))
        }
    }

    func secretVariable(in node: RubyNode) -> String? {
        var found: String?
        node.walk { inner in
            if case .index(.constant("ENV", _), let keys, _) = inner, let name = keys.first?.symbolText, looksSecret(name) { found = name }
            if case .call(let call) = inner, call.name == "fetch", case .constant("ENV", _)? = call.receiver,
               let name = call.arguments.first?.symbolText, looksSecret(name) { found = name }
        }
        return found
    }

    private mutating func fastlaneArgument(_ key: String, _ node: RubyNode) throws -> String {
        switch node {
        case .array(let items, _):
            if let texts = Optional(items.compactMap(\.symbolText)), texts.count == items.count {
                return SwiftText.literal("\(key):\(texts.joined(separator: ","))")
            }
            let list = try expression(node)
            guard list.kind == .strings else { throw Untranslatable("a list option with values that are not text") }
            return "\"\(String(SwiftText.literal(key).dropFirst().dropLast())):\\(\(list.code).joined(separator: \",\"))\""
        case .hash:
            throw Untranslatable("a hash option, which `fastlane run` cannot take")
        default:
            if let text = node.symbolText { return SwiftText.literal("\(key):\(text)") }
            switch node {
            case .bool(let flag, _): return SwiftText.literal("\(key):\(flag)")
            case .integer(let digits, _), .float(let digits, _): return SwiftText.literal("\(key):\(digits)")
            default: break
            }
            let value = try expression(node)
            guard let inner = value.interpolated else { throw Untranslatable("an option value that is not text") }
            return "\"\(String(SwiftText.literal(key).dropFirst().dropLast())):\\(\(inner))\""
        }
    }
}

extension FastlaneAction.Mapping {
    var functionText: String {
        switch self {
        case .lanefile(let function, _): function
        default: "a lanes step"
        }
    }
}

extension Substring {
    var trimmingSpaces: String {
        String(drop { $0 == " " }.reversed().drop { $0 == " " }.reversed())
    }
}
