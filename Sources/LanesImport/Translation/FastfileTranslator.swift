import LanesRuntime
import LanesPlatform

/// Why a statement was not translated; it becomes a `TODO(import)` block.
struct Untranslatable: Error {
    let reason: String
    init(_ reason: String) { self.reason = reason }
}

/// Defaults read from the files beside the Fastfile (Appfile, Matchfile, Gymfile, ...).
public struct FastlaneConfiguration: Sendable {
    /// Appfile values: `app_identifier`, `apple_id`, `team_id`, `itc_team_id`.
    public var appfile: [String: String] = [:]
    /// Appfile values read at run time (`app_identifier ENV["APP_ID"]`): a constant reading the variable.
    var computedAppfile: [String: RubyNode] = [:]
    /// The Appfile's `for_lane :beta do ... end` values, by lane name; `for_platform :ios` ones by "platform ios".
    public var laneAppfile: [String: [String: String]] = [:]
    /// Per action (canonical name): the keyword arguments its config file gives.
    var defaults: [String: [RubyPair]] = [:]
    /// Plugins the Pluginfile names (`fastlane-plugin-versioning`).
    public var plugins: [String] = []
    public var notes: [String] = []

    public init() {}
}

/// The lane being translated: what its body reads, so the `Lane(...)` declaration can name it.
struct LaneState {
    var name: String
    var isHook = false
    /// The Ruby block parameters: the lane name and options (`|lane, options|`), the error (`|lane, exception|`).
    var optionsParameter: String?
    var laneParameter: String?
    var errorParameter: String?
    var environment: [String] = []
    var secrets: [String] = []
    var options: [(name: String, constant: String, kind: SwiftValue.Kind)] = []
    /// Per option key read in the lane: whether every use only tests it (`OptionUses`).
    var optionFlags: [String: Bool] = [:]
    /// A method's hash parameter indexed like lane options (`def sign(options)`, `options[:type]`).
    var optionsDictionary: String?
    var usesFastlane = false
    /// The lanes this lane calls (`callLane`), by lanes name.
    var calledLanes: [String] = []
    var scopes: [[String: SwiftValue.Kind]] = [[:]]
    /// Names assigned more than once in the lane (`var`).
    var reassigned: Set<String> = []
    /// Plain local variables the lane assigns: an `@name` or `$name` of the same name stays a TODO.
    var assignedLocals: Set<String> = []
    var sharedResults: [String: String] = [:]
    var wantsSharedResults = false
    var temporaries = 0
    /// Where `sh` runs, relative to the Lanefile: fastlane runs it in the fastlane folder, `Dir.chdir` moves it.
    var shellDirectory = "fastlane"

    func local(_ name: String) -> SwiftValue.Kind? {
        for scope in scopes.reversed() { if let kind = scope[name] { return kind } }
        return nil
    }

    mutating func declareEnvironment(_ name: String, secret: Bool) {
        if secret {
            if !secrets.contains(name) { secrets.append(name) }
        } else if !environment.contains(name) && !secrets.contains(name) {
            environment.append(name)
        }
    }
}

/// Writes a Lanefile from a parsed Fastfile: lanes, hooks, steps, and a report entry for every action call.
struct FastfileTranslator {
    var report = ImportReport()
    var output = LanefileEmitter()
    var globals: [String: SwiftValue.Kind] = [:]
    var globalLines = LanefileEmitter()
    var optionDeclarations: [String] = []
    /// The names `optionDeclarations` declared (kept when a declaration is taken back: a name is never reused).
    var optionConstants: Set<String> = []
    var lane = LaneState(name: "")
    /// fastlane lane name (`beta`, `ios beta`) to lanes lane name.
    var laneNames: [String: String] = [:]
    var helperMethods: Set<String> = []
    /// Each lane definition's name (a lane defined twice has two).
    var definitionNames: [SourcePosition: String] = [:]
    let configuration: FastlaneConfiguration
    let statementTexts: [SourcePosition: String]
    let secretNames = SecretNames(variables: [:])
    var currentPlatform: String?
    var prelude: [String] = []
    /// `@name`/`$name` the run shares (`SharedVariables`), their kinds as assigned, and the kinds an
    /// earlier pass found (a method read before the one that sets it is translated).
    var sharedNames: Set<String> = []
    var sharedKinds: [String: SwiftValue.Kind] = [:]
    var knownSharedKinds: [String: SwiftValue.Kind] = [:]
    var sharedReadBeforeKnown = false
    var usesSharedVariables = false

    /// Lines that start after a line end only an editor shows (`SwiftText.editorOnlyLineStarts`).
    let editorOnlyLines: Set<Int>

    init(configuration: FastlaneConfiguration, statementTexts: [SourcePosition: String], editorOnlyLines: Set<Int> = []) {
        self.configuration = configuration
        self.statementTexts = statementTexts
        self.editorOnlyLines = editorOnlyLines
    }

    /// A line of `statement` that starts after a line end only editors show: for a statement with
    /// a body, its first line (its body's statements are checked as they are translated).
    func editorOnlyLine(in statement: RubyNode) -> Int? {
        guard !editorOnlyLines.isEmpty else { return nil }
        let first = statement.position.line
        var last = first
        switch statement {
        case .ifNode, .whileNode, .caseNode, .begin, .forNode, .def, .lambda: break
        case .call(let call) where call.block != nil: break
        default:
            if let text = statementTexts[statement.position] { last += text.utf8.reduce(0) { $1 == 0x0A ? $0 + 1 : $0 } }
        }
        return (first ... last).first { editorOnlyLines.contains($0) }
    }

    static func editorOnlyReason(_ line: Int) -> String {
        "line \(line) starts after a line end only editors show (a lone CR, U+2028, U+2029 or NEL); "
            + "Ruby reads it as part of the line before, so what it says is not what fastlane ran"
    }

    struct LaneDefinition {
        let platform: String?
        let name: String
        let isPrivate: Bool
        let summary: String?
        let block: RubyBlock
        let position: SourcePosition
    }

    /// The whole Lanefile for `statements` (a Fastfile's top level).
    mutating func translate(_ statements: [RubyNode], source: String) -> (lanefile: String, lineMap: [Int: Int]) {
        report.source = source
        var definitions: [LaneDefinition] = []
        var hooks: [(kind: String, block: RubyBlock, platform: String?)] = []
        var topLevel: [RubyNode] = []
        collect(statements, platform: nil, definitions: &definitions, hooks: &hooks, topLevel: &topLevel)
        nameLanes(definitions)
        // A `$name` the top level sets is a constant every lane reads (`globals`), not a shared variable.
        let topLevelNames = Set(topLevel.compactMap { node -> String? in
            if case .assign(let target, _, _, _) = node { return target.laneVariableName }
            return nil
        })
        sharedNames = SharedVariables.shared(in: hooks.map(\.block.body) + definitions.map(\.block.body) + helperDefinitions.map(\.body))
            .subtracting(topLevelNames)
        collectOptionKeys(definitions)

        var header = LanefileEmitter()
        header.emit("// Imported from \(source) by `lanes import fastlane`. Lines marked TODO(import) need a human;", source: nil)
        header.emit("// the migration report lists every action call and what it became.", source: nil)
        header.emit("import Lanes", source: nil)
        header.emit("", source: nil)

        for (key, value) in configuration.appfile.sorted(by: { $0.key < $1.key }) {
            let constant = swiftIdentifier(camelCase(key))
            globals[key] = .string
            globalLines.emit("/// " + SwiftText.commentLine("From the Appfile: \(key)."), source: nil)
            globalLines.emit("let \(constant) = \(SwiftText.literal(value))", source: nil)
        }
        lane = LaneState(name: "top level")
        for (key, node) in configuration.computedAppfile.sorted(by: { $0.key < $1.key }) where configuration.appfile[key] == nil {
            declareComputedAppfileValue(key, node)
        }
        for statement in topLevel { translateTopLevel(statement) }

        var functions = LanefileEmitter()
        for method in helperDefinitions { translateHelper(method, into: &functions) }

        var body = LanefileEmitter()
        body.indent = 1
        for hook in hooks { translateHook(hook.kind, block: hook.block, platform: hook.platform, into: &body) }
        for definition in definitions { translateLane(definition) }
        emitLanes(into: &body)

        if usesFoundation { header.emit("import Foundation", source: nil) }
        output = header
        output.append(globalLines)
        for declaration in optionDeclarations { output.emit(declaration, source: nil) }
        if !globalLines.lines.isEmpty || !optionDeclarations.isEmpty { output.emit("", source: nil) }
        output.emit("let lanes = Lanefile {", source: nil)
        output.append(body)
        output.emit("}", source: nil)
        output.append(functions)
        if usesSharedVariables { output.append(sharedDeclaration()) }
        if usesPassedOptions {
            output.emit("", source: nil)
            output.emit("/// The options one lane passes on to another (fastlane's `other_lane(options)`): those given, by name.", source: nil)
            output.emit("func passedOptions(_ values: [String: String?]) -> [String: String] { values.compactMapValues { $0 } }", source: nil)
        }
        if usesParsedOption {
            output.emit("", source: nil)
            output.emit("/// Text given at run time for a typed step option: a value the step does not take stops the lane, naming the option.", source: nil)
            output.emit("func parsedOption<Value>(_ text: String?, _ what: String, _ parse: (String) -> Value?) throws -> Value? {", source: nil)
            output.emit("    guard let text else { return nil }", source: nil)
            output.emit("    guard let value = parse(text) else { try fail(\"\\(what) does not take the value \\\"\\(text)\\\"\") }", source: nil)
            output.emit("    return value", source: nil)
            output.emit("}", source: nil)
        }
        if usesPlaceholder {
            output.emit("", source: nil)
            output.emit("/// Stands for a value the importer left to a human (the TODO(import) above its use): the lane stops there.", source: nil)
            output.emit("func importTODO<Value>(line: Int) throws -> Value {", source: nil)
            output.emit("    try fail(\"Fastfile line \\(line) was not imported: see the TODO(import) above it in the Lanefile\")", source: nil)
            output.emit("}", source: nil)
            output.emit("", source: nil)
            output.emit("/// Stands for a statement the importer left to a human (the TODO(import) above it): the lane stops there.", source: nil)
            output.emit("func importTODO(line: Int, _ reason: String) throws {", source: nil)
            output.emit("    try fail(\"Fastfile line \\(line) was not imported (\\(reason)): see the TODO(import) above it in the Lanefile\")", source: nil)
            output.emit("}", source: nil)
        }
        report.notes += configuration.notes
        if !configuration.plugins.isEmpty {
            report.notes.append("The Pluginfile names \(configuration.plugins.joined(separator: ", ")); their actions are kept through fastlane (`fastlane run`), so install the plugins with `bundle exec fastlane install_plugins`.")
        }
        return (output.text, output.sourceLines)
    }

    /// Splits the top level into lanes, hooks and the rest, flattening `platform :ios do ... end`.
    private mutating func collect(_ statements: [RubyNode], platform: String?, definitions: inout [LaneDefinition],
                                  hooks: inout [(kind: String, block: RubyBlock, platform: String?)], topLevel: inout [RubyNode]) {
        var summary: String?
        for statement in statements {
            if case .def(let method) = statement {
                helperMethods.insert(method.name)
                helperDefinitions.append(method)
                continue
            }
            guard case .call(let call) = statement, call.receiver == nil else {
                if case .unreadable(let text, _, _) = statement, text.hasPrefix("def ") || text.hasPrefix("func ") {
                    let name = text.drop { $0 != " " }.dropFirst().prefix { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "?" || $0 == "!" }
                    helperMethods.insert(String(name))
                }
                topLevel.append(statement)
                continue
            }
            switch call.name {
            case "desc":
                summary = call.arguments.first.flatMap(Self.plainText)
            case "platform" where call.block != nil:
                let name = call.arguments.first?.symbolText ?? "platform"
                collect(call.block?.body ?? [], platform: name, definitions: &definitions, hooks: &hooks, topLevel: &topLevel)
            case "lane", "private_lane", "override_lane":
                guard let name = call.arguments.first?.symbolText, let block = call.block else {
                    topLevel.append(statement)
                    continue
                }
                definitions.append(LaneDefinition(platform: platform, name: name, isPrivate: call.name == "private_lane", summary: summary,
                                                  block: block, position: call.position))
                summary = nil
            case "before_all", "after_all", "error", "before_each", "after_each":
                if let block = call.block { hooks.append((call.name, block, platform)) } else { topLevel.append(statement) }
            default:
                topLevel.append(statement)
            }
        }
    }

    /// fastlane runs `ios beta`; a lane name in lanes is one identifier. A name used on one platform
    /// only keeps its name, one used on several gets the platform as a prefix (`ios_beta`).
    private mutating func nameLanes(_ definitions: [LaneDefinition]) {
        var counts: [String: Int] = [:]
        for definition in definitions { counts[definition.name, default: 0] += 1 }
        var used: Set<String> = []
        for definition in definitions {
            var name = definition.name
            if counts[name, default: 0] > 1, let platform = definition.platform { name = "\(platform)_\(name)" }
            name = Self.laneIdentifier(name)
            if Subcommands.names.contains(name) || ["help", "import"].contains(name) { name += "_lane" }
            while used.contains(name) { name += "_" }
            used.insert(name)
            if name != definition.name {
                let typed = name == definition.name.replacing("-", with: "_") ? " (`lanes \(definition.name)` runs it too)" : ""
                report.notes.append("line \(definition.position.line): fastlane's lane `\(fastlaneName(definition))` is the lane `\(name)`\(typed).")
            }
            laneNames[fastlaneName(definition)] = name
            definitionNames[definition.position] = name
            if laneNames[definition.name] == nil || definition.platform == currentPlatform { laneNames[definition.name] = name }
        }
    }

    /// A lane name lanes accepts (ASCII letters, digits and `_`, not starting with a digit): any other
    /// character becomes `_`, so `hotfix-start` is `hotfix_start`, which `lanes hotfix-start` finds.
    static func laneIdentifier(_ text: String) -> String {
        var name = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a" ... "z", "A" ... "Z", "0" ... "9", "_": name.unicodeScalars.append(scalar)
            default: if !name.isEmpty, !name.hasSuffix("_") { name += "_" }
            }
        }
        while name.hasSuffix("_") && name.count > 1 { name.removeLast() }
        if name.isEmpty || name == "_" || name.first!.isNumber { name = "lane_" + name }
        return name
    }

    private func fastlaneName(_ definition: LaneDefinition) -> String {
        definition.platform.map { "\($0) \(definition.name)" } ?? definition.name
    }

    static func plainText(_ node: RubyNode) -> String? {
        switch node {
        case .string(let parts, _):
            return parts.map { part -> String in
                switch part {
                case .text(let text): return text
                case .code: return "…"
                }
            }.joined()
        case .symbol(let text, _): return text
        default: return nil
        }
    }

    // MARK: Top level

    /// Whether a global already declared has the Swift name `name` would get (`$app` and `app` both give `app`).
    private func swiftNameTaken(_ name: String) -> Bool {
        let constant = swiftIdentifier(name)
        return globalConstantNames.contains(constant)
    }

    private mutating func translateTopLevel(_ statement: RubyNode) {
        let line = statement.position.line
        if let flagged = editorOnlyLine(in: statement) {
            todoAtTopLevel(statement, reason: Self.editorOnlyReason(flagged))
            return
        }
        switch statement {
        case .assign(.name(let name, _), let value, nil, _) where globals[name] == nil,
             .assign(.constant(let name, _), let value, nil, _) where globals[name] == nil,
             // `$name`/`@name` at the top level: read by every lane, like a constant.
             .assign(.globalVariable(let name, _), let value, nil, _) where globals[name] == nil,
             .assign(.instanceVariable(let name, _), let value, nil, _) where globals[name] == nil:
            // A credential (by the constant's name or its value) is never copied: a computed global reads the secret.
            let credential = value.symbolText.map { text in !text.isEmpty && (Credentials.isCredentialName(name) || Credentials.looksLikeCredential(text)) } == true
            if credential, case .string = value, !swiftNameTaken(name) {
                let constant = swiftIdentifier(name)
                let secretName = Credentials.looksLikeCredential(value.symbolText ?? "") ? Credentials.nameForValue(value.symbolText ?? "", place: name)
                    : Credentials.environmentName(name)
                globals[name] = .secret
                globalConstants[name] = "(try \(constant))"
                globalConstantNames.insert(constant)
                globalReads[name] = ([], [secretName])
                recordSecretToCreate(secretName, line: line, origin: "the constant \(name)", declared: false)
                globalLines.comment(line: "\(name) was a credential written in the Fastfile: it is read from the secret \(secretName).", source: line)
                globalLines.emit("var \(constant): Secret { get throws { try secret(\(SwiftText.literal(secretName))) } }", source: line)
                return
            }
            if !credential, !swiftNameTaken(name), let literal = (try? literalValue(value)) ?? globalExpression(value) {
                let constant = swiftIdentifier(name)
                globals[name] = literal.kind
                globalConstants[name] = constant
                globalConstantNames.insert(constant)
                globalLines.emit("let \(constant) = \(literal.code)", source: line)
                return
            }
            // A value that reads the environment is read when a lane uses it: a computed global.
            let saved = (report.checkpoint, lane)
            if !swiftNameTaken(name), let computed = try? expression(value), !computed.code.contains("await"),
               let type = ([.string: "String", .strings: "[String]", .int: "Int", .bool: "Bool", .optionalString: "String?", .secret: "Secret"]
                           as [SwiftValue.Kind: String])[computed.kind] {
                let constant = swiftIdentifier(name)
                globals[name] = computed.kind
                // The variables it reads are declared on every lane that reads the constant.
                globalReads[name] = (lane.environment.filter { !saved.1.environment.contains($0) }, lane.secrets.filter { !saved.1.secrets.contains($0) })
                lane = saved.1
                globalConstants[name] = "(try \(constant))"
                globalConstantNames.insert(constant)
                globalLines.emit("var \(constant): \(type) { get throws { \(computed.code) } }", source: line)
                return
            }
            report.rollBack(to: saved.0); lane = saved.1
        case .name(let name, let position):
            translateTopLevel(.call(RubyCall(receiver: nil, name: name, arguments: [], keywords: [], block: nil, position: position,
                                             hasParentheses: false, safeNavigation: false)))
            return
        case .call(let call) where call.receiver == nil:
            if let action = CatalogLookup.action(named: call.name) {
                if case .implicit(let reason) = action.mapping {
                    record(call.name, line: line, .implicit, reason)
                    globalLines.comment(line: "fastlane's `\(call.name)` is not needed: \(reason).", source: line)
                    return
                }
                if ["import_from_git", "import"].contains(action.name) {
                    todoAtTopLevel(statement, reason: "`\(call.name)` loads lanes from elsewhere: import that Fastfile too, or share the lanes as a Swift package")
                    return
                }
            }
            if ["fastlane_version", "min_fastlane_version", "fastlane_require", "update_fastlane", "xcode_select", "ensure_bundle_exec"].contains(call.name) {
                record(call.name, line: line, .implicit, "lanes needs no fastlane version")
                globalLines.comment(line: "fastlane's `\(call.name)` is not needed by lanes.", source: line)
                return
            }
        case .assign(.index(.constant("ENV", _), let keys, _), let value, _, _):
            if let name = keys.first?.symbolText, let text = Self.plainText(value) {
                if Credentials.isCredentialName(name) || Credentials.looksLikeCredential(text) {
                    // Never copied: the value is a credential, which belongs in the CI's secret store.
                    report.notes.append("line \(line): the Fastfile sets the secret \(name) for every lane (its value is not copied); "
                                        + "create \(name) in your CI's secrets (or a git-ignored `.env` beside the Lanefile) and remove it from the Fastfile.")
                    report.secretsToCreate.append(ImportReport.SecretToCreate(name: name, line: line, origin: "ENV[\"\(name)\"] at the top of the Fastfile"))
                    globalLines.comment(line: "The Fastfile sets the secret \(name) for every lane: its value is not copied; set \(name) in the environment.", source: line)
                    return
                }
                report.notes.append("line \(line): the Fastfile sets \(name)=\(text) for every lane; put it in `.env.default` beside the Lanefile.")
                globalLines.comment(line: "The Fastfile sets \(name) for every lane: put `\(name)=\(text)` in .env.default.", source: line)
                return
            }
        default:
            break
        }
        todoAtTopLevel(statement, reason: "top-level Ruby outside lanes")
    }

    private mutating func todoAtTopLevel(_ statement: RubyNode, reason: String) {
        var lines = globalLines
        todo(statement, reason: reason, into: &lines)
        globalLines = lines
    }

    var globalConstants: [String: String] = [:]
    var translatedLanes: [TranslatedLane] = []
    /// Whether a typed step option reads text given at run time (`parsedOption`).
    var usesParsedOption = false
    /// Whether a lane passes its options on (`passedOptions`).
    var usesPassedOptions = false
    /// The option keys each lane reads (by lanes name), and each method with an options hash, with
    /// whether every use tests them: what a caller passing its options on must declare.
    var laneOptionKeys: [String: [(name: String, flag: Bool)]] = [:]
    var helperOptionKeys: [String: [(name: String, flag: Bool)]] = [:]
    /// The variables and secrets a computed global reads (`TEAMID = ENV["TEAMID"]`), declared on the lanes that read it.
    var globalReads: [String: (environment: [String], secrets: [String])] = [:]
    /// The Swift names of `globalConstants`, to tell a name taken at once.
    var globalConstantNames: Set<String> = []
    var helperDefinitions: [RubyMethod] = []
    /// Helpers written as Swift functions: their parameters, and the variables their bodies read
    /// (declared on every lane that calls them).
    var helpers: [String: (parameters: [RubyMethod.Parameter], kinds: [SwiftValue.Kind], environment: [String], secrets: [String])] = [:]
    /// Whether the Lanefile needs Foundation (`FileManager` for Ruby's `File.exist?`).
    var usesFoundation = false
    /// Whether a lane uses `importTODO`, the placeholder for a value left to a human.
    var usesPlaceholder = false

    /// A top-level value built from other constants (`PATH = "#{ROOT}/x"`): fine at the top of a
    /// Lanefile when it needs no `try`.
    private mutating func globalExpression(_ node: RubyNode) -> SwiftValue? {
        let saved = (report.checkpoint, lane)
        guard let value = try? expression(node), !value.code.contains("try"),
              [.string, .strings, .int, .bool, .double].contains(value.kind) else {
            report.rollBack(to: saved.0); lane = saved.1
            return nil
        }
        return value
    }

    /// A value written the same in Ruby and Swift: a string without interpolation, a number, true/false.
    private func literalValue(_ node: RubyNode) throws -> SwiftValue {
        switch node {
        case .string(let parts, _):
            guard let text = node.symbolText, parts.count <= 1 else { throw Untranslatable("not a literal") }
            return .literal(text)
        case .symbol(let text, _): return .literal(text)
        case .integer(let digits, _): return SwiftValue(digits, .int)
        case .float(let digits, _): return SwiftValue(digits, .double)
        case .bool(let value, _): return SwiftValue(value ? "true" : "false", .bool)
        case .array(let items, _):
            let strings = try items.map { item -> String in
                guard let text = item.symbolText else { throw Untranslatable("not a literal") }
                return SwiftText.literal(text)
            }
            return SwiftValue("[" + strings.joined(separator: ", ") + "]", .strings)
        default: throw Untranslatable("not a literal")
        }
    }

    // MARK: Lanes and hooks

    /// `app_identifier ENV["APP_ID"]` in the Appfile: a constant reading the variable when a lane uses it,
    /// declared on every lane that does; a value the importer cannot read is left out with a note.
    private mutating func declareComputedAppfileValue(_ key: String, _ node: RubyNode) {
        let saved = lane
        defer { lane = saved }
        let constant = swiftIdentifier(camelCase(key))
        guard let value = try? expression(node), !value.code.contains("await"),
              let type = ([.string: "String", .optionalString: "String?"] as [SwiftValue.Kind: String])[value.kind] else {
            report.notes.append("Appfile: the value of \(key) is computed in a way the importer does not read; it was not imported.")
            return
        }
        globals[key] = value.kind
        globalConstants[key] = "(try \(constant))"
        globalConstantNames.insert(constant)
        globalReads[key] = (lane.environment.filter { !saved.environment.contains($0) }, lane.secrets.filter { !saved.secrets.contains($0) })
        globalLines.emit("/// " + SwiftText.commentLine("From the Appfile: \(key), read when a lane uses it."), source: nil)
        globalLines.emit("var \(constant): \(type) { get throws { \(value.code) } }", source: nil)
    }

    /// A lane translated, emitted once every lane is: what the lanes it calls read is declared on it too.
    struct TranslatedLane {
        let definition: LaneDefinition
        let name: String
        let state: LaneState
        let content: LanefileEmitter
    }

    /// Emits the translated lanes; each declares the variables and secrets of the lanes it calls
    /// (`callLane`), transitively, so `lanes help` lists them and a run checks them ahead.
    private mutating func emitLanes(into body: inout LanefileEmitter) {
        var byName: [String: LaneState] = [:]
        for translated in translatedLanes { byName[translated.name] = translated.state }
        for translated in translatedLanes {
            var state = translated.state
            var visited: Set<String> = [translated.name]
            var queue = state.calledLanes
            while let next = queue.first {
                queue.removeFirst()
                guard visited.insert(next).inserted, let callee = byName[next] else { continue }
                for name in callee.environment { state.declareEnvironment(name, secret: false) }
                for name in callee.secrets { state.declareEnvironment(name, secret: true) }
                queue += callee.calledLanes
            }
            let definition = translated.definition, name = translated.name
            var summary = definition.summary ?? "Imported from the Fastfile's lane \(fastlaneName(definition))"
            if definition.isPrivate { summary += " (private_lane in the Fastfile)" }
            var arguments = ["\(SwiftText.literal(name))", SwiftText.literal(summary)]
            if !state.options.isEmpty { arguments.append("options: [" + state.options.map(\.constant).joined(separator: ", ") + "]") }
            if !state.environment.isEmpty { arguments.append("environment: [" + state.environment.map(SwiftText.literal).joined(separator: ", ") + "]") }
            if !state.secrets.isEmpty { arguments.append("secrets: [" + state.secrets.map(SwiftText.literal).joined(separator: ", ") + "]") }
            if state.usesFastlane { arguments.append("tools: [\"fastlane\"]") }
            body.emit("Lane(\(arguments.joined(separator: ", "))) { \(state.options.isEmpty ? "" : "lane in")", source: definition.position.line)
            body.append(translated.content)
            body.emit("}", source: definition.position.line)
            report.lanes.append(ImportReport.LaneEntry(name: name, fastlaneName: fastlaneName(definition), environment: state.environment,
                                                       secrets: state.secrets, options: state.options.map(\.name)))
        }
    }

    private mutating func translateLane(_ definition: LaneDefinition) {
        let name = definitionNames[definition.position] ?? laneNames[fastlaneName(definition)] ?? definition.name
        lane = LaneState(name: name)
        let keywords = definition.block.keywords
        lane.optionsParameter = definition.block.parameters.first.flatMap { first in keywords.contains { $0.name == first } ? nil : first }
        lane.reassigned = Self.reassignedNames(definition.block.body)
        lane.assignedLocals = Self.assignedLocalNames(definition.block.body)
        lane.wantsSharedResults = Self.mentionsLaneContext(definition.block.body)
        if let parameter = lane.optionsParameter {
            lane.optionFlags = OptionUses(body: definition.block.body, optionsParameter: parameter).onlyTested
        }
        currentPlatform = definition.platform
        var content = LanefileEmitter()
        content.indent = 1
        declareKeywordOptions(keywords, body: definition.block.body, line: definition.position.line, into: &content)
        if editorOnlyLines.contains(definition.position.line) {
            // fastlane never saw this lane as one: it stops at once, its statements quoted for a human.
            let reason = Self.editorOnlyReason(definition.position.line)
            usesPlaceholder = true
            content.comment(line: "TODO(import) Fastfile line \(definition.position.line): \(reason)", source: definition.position.line)
            content.emit("try importTODO(line: \(definition.position.line), \(SwiftText.literal(reason)))", source: definition.position.line)
            for statement in definition.block.body { todo(statement, reason: reason, into: &content) }
        } else {
            translateBody(definition.block.body, into: &content)
        }

        translatedLanes.append(TranslatedLane(definition: definition, name: name, state: lane, content: content))
    }

    /// `lane :x do |skip_confirm: false, version: nil|`: fastlane passes the lane's options as these
    /// keywords, so each becomes a typed lane option with the same default, read into a local of its name.
    /// A default that is not a plain literal leaves the name undeclared (its uses stay TODOs).
    private mutating func declareKeywordOptions(_ keywords: [RubyMethod.Parameter], body: [RubyNode], line: Int,
                                                into content: inout LanefileEmitter) {
        for keyword in keywords {
            let type: String, kind: SwiftValue.Kind, defaultText: String?
            switch keyword.defaultValue {
            case .bool(let value, _)?: (type, kind, defaultText) = ("Bool", .bool, value ? "true" : "false")
            case .integer(let digits, _)?: (type, kind, defaultText) = ("Int", .int, digits)
            case .nilValue?: (type, kind, defaultText) = ("String?", .optionalString, nil)
            case nil: (type, kind, defaultText) = ("String", .string, nil)  // Ruby requires it
            case let value?:
                guard case .string = value, let text = value.symbolText else { continue }
                (type, kind, defaultText) = ("String", .string, SwiftText.literal(text))
            }
            let name = keyword.name
            var constant = swiftIdentifier(camelCase(lane.name) + "Option" + camelCase(name).prefix(1).uppercased() + camelCase(name).dropFirst())
            while optionConstants.contains(constant) { constant += "_" }
        optionConstants.insert(constant)
            optionDeclarations.append("let \(constant) = LaneOption<\(type)>(\(SwiftText.literal(name)), \(SwiftText.literal("the \(name): keyword of the Fastfile's lane \(lane.name)"))" +
                                      (defaultText.map { ", default: \($0)" } ?? "") + ")")
            lane.options.append((name, constant, kind))
            var assigned = false
            for statement in body { statement.walk { if case .assign(.name(name, _), _, _, _) = $0 { assigned = true } } }
            lane.scopes[lane.scopes.count - 1][name] = kind
            content.emit("\(assigned ? "var" : "let") \(swiftIdentifier(name)) = try lane[\(constant)]", source: line)
        }
    }

    /// The options every lane and method reads, those of the lanes and methods it passes its own
    /// options to included (until nothing changes: a chain of lanes passing options on).
    private mutating func collectOptionKeys(_ definitions: [LaneDefinition]) {
        func merged(_ a: [(name: String, flag: Bool)], _ b: [(name: String, flag: Bool)]) -> [(name: String, flag: Bool)] {
            var result = a
            for key in b where !result.contains(where: { $0.name == key.name }) { result.append(key) }
            return result
        }
        var calls: [String: [String]] = [:]  // body name to the lanes/methods it passes options to
        for method in helperDefinitions {
            guard let parameter = Self.optionsHashParameter(method) else { continue }
            let uses = OptionUses(body: method.body, optionsParameter: parameter)
            helperOptionKeys[method.name] = uses.keys.map { ($0, uses.onlyTested[$0] ?? false) }
            calls["def " + method.name] = Self.optionPassingCalls(method.body, parameter: parameter)
        }
        for definition in definitions {
            let name = definitionNames[definition.position] ?? definition.name
            var keys: [(name: String, flag: Bool)] = definition.block.keywords.map { keyword in
                if case .bool? = keyword.defaultValue { return (keyword.name, true) }
                return (keyword.name, false)
            }
            if let parameter = definition.block.parameters.first, !definition.block.keywords.contains(where: { $0.name == parameter }) {
                let uses = OptionUses(body: definition.block.body, optionsParameter: parameter)
                keys = merged(keys, uses.keys.map { ($0, uses.onlyTested[$0] ?? false) })
                calls[name] = Self.optionPassingCalls(definition.block.body, parameter: parameter)
            }
            laneOptionKeys[name] = keys
        }
        var changed = true
        var rounds = 0
        while changed && rounds < 50 {
            changed = false
            rounds += 1
            for (caller, callees) in calls {
                for callee in callees {
                    let calleeKeys = helperOptionKeys[callee] ?? laneNames[callee].flatMap { laneOptionKeys[$0] } ?? []
                    if caller.hasPrefix("def ") {
                        let method = String(caller.dropFirst(4))
                        let before = helperOptionKeys[method]?.count ?? 0
                        helperOptionKeys[method] = merged(helperOptionKeys[method] ?? [], calleeKeys)
                        changed = changed || helperOptionKeys[method]!.count != before
                    } else {
                        let before = laneOptionKeys[caller]?.count ?? 0
                        laneOptionKeys[caller] = merged(laneOptionKeys[caller] ?? [], calleeKeys)
                        changed = changed || laneOptionKeys[caller]!.count != before
                    }
                }
            }
        }
    }

    /// The positional parameter a method indexes with symbols (`options[:type]`): an options hash.
    static func optionsHashParameter(_ method: RubyMethod) -> String? {
        for parameter in method.parameters where !parameter.keyword && parameter.defaultValue == nil {
            var indexed = false
            for statement in method.body {
                statement.walk { node in
                    if case .index(.name(parameter.name, _), let keys, _) = node, keys.count == 1, case .symbol = keys[0] { indexed = true }
                }
            }
            if indexed { return parameter.name }
        }
        return nil
    }

    /// The names of the lanes and methods `body` calls with `parameter` itself (`sign(options)`).
    static func optionPassingCalls(_ body: [RubyNode], parameter: String) -> [String] {
        var names: [String] = []
        for statement in body {
            statement.walk { node in
                guard case .call(let call) = node, call.receiver == nil else { return }
                let passes = call.arguments.contains { if case .name(parameter, _) = $0 { true } else { false } }
                    || call.keywords.contains { pair in pair.key.symbolText == "options" && { if case .name(parameter, _) = pair.value { true } else { false } }() }
                if passes { names.append(call.name) }
            }
        }
        return names
    }

    /// `def name(a, b: 1)` as `func name(_ a: String, b: String = "1") async throws`: parameters are
    /// text (Ruby does not say their type), the result is dropped (calls that use it become TODOs).
    private mutating func translateHelper(_ method: RubyMethod, into functions: inout LanefileEmitter) {
        lane = LaneState(name: "def \(method.name)")
        lane.isHook = true
        lane.reassigned = Self.reassignedNames(method.body)
        lane.assignedLocals = Self.assignedLocalNames(method.body)
        var parameters: [String] = []
        var kinds: [SwiftValue.Kind] = []
        let hashParameter = Self.optionsHashParameter(method)
        lane.optionsDictionary = hashParameter
        for parameter in method.parameters {
            if parameter.name == hashParameter {
                parameters.append("_ \(swiftIdentifier(parameter.name)): [String: String]")
                kinds.append(.dictionary)
                continue
            }
            var kind = SwiftValue.Kind.string
            var declaration = "\(parameter.keyword ? "" : "_ ")\(swiftIdentifier(parameter.name)): String"
            if let value = parameter.defaultValue {
                switch value {
                case .nilValue: kind = .optionalString; declaration += "? = nil"
                case .bool(let flag, _): kind = .bool; declaration = declaration.dropLast(6) + "Bool = \(flag)"
                default:
                    if let text = value.symbolText { declaration += " = \(SwiftText.literal(text))" }
                    else if case .integer(let digits, _) = value { declaration += " = \"\(digits)\"" }
                    else { declaration += "? = nil"; kind = .optionalString }
                }
            }
            parameters.append(declaration)
            kinds.append(kind)
            lane.scopes[0][parameter.name] = kind
        }
        var content = LanefileEmitter()
        content.indent = 1
        translateBody(method.body, into: &content)
        functions.emit("", source: nil)
        functions.emit("/// " + SwiftText.commentLine("`\(method.name)`, a Ruby method of the Fastfile."), source: method.position.line)
        functions.emit("func \(swiftIdentifier(method.name))(\(parameters.joined(separator: ", "))) async throws {", source: method.position.line)
        functions.append(content)
        functions.emit("}", source: method.position.line)
        helpers[method.name] = (method.parameters, kinds, lane.environment, lane.secrets)
    }

    private mutating func translateHook(_ kind: String, block: RubyBlock, platform: String?, into body: inout LanefileEmitter) {
        lane = LaneState(name: kind)
        lane.isHook = true
        lane.laneParameter = block.parameters.first
        lane.reassigned = Self.reassignedNames(block.body)
        lane.assignedLocals = Self.assignedLocalNames(block.body)
        var opener: String
        switch kind {
        case "before_all", "before_each": opener = "BeforeEach { lane in"
        case "after_all", "after_each": opener = "AfterSuccess { lane in"
        default:
            opener = "OnError { lane, error in"
            lane.errorParameter = block.parameters.count > 1 ? block.parameters[1] : nil
        }
        var content = LanefileEmitter()
        content.indent = 1
        translateBody(block.body, into: &content)
        if let platform {
            body.comment(line: "fastlane's `\(kind)` of `platform :\(platform)`: here it runs around every lane.", source: block.position.line)
        }
        if kind == "before_each" || kind == "after_each" {
            body.emit("// fastlane's `\(kind)` also ran around lanes called from lanes; lanes' hooks run around the lane started.", source: block.position.line)
        }
        body.emit(opener, source: block.position.line)
        body.append(content)
        body.emit("}", source: block.position.line)
        if !lane.environment.isEmpty || !lane.secrets.isEmpty {
            report.notes.append("The `\(kind)` hook reads \((lane.environment + lane.secrets).joined(separator: ", ")); hooks cannot declare them, so a missing one fails when the hook runs.")
        }
    }

    static func reassignedNames(_ body: [RubyNode]) -> Set<String> {
        var counts: [String: Int] = [:]
        for statement in body {
            statement.walk { node in
                if case .assign(.name(let name, _), _, let op, _) = node { counts[name, default: 0] += op == nil ? 1 : 2 }
                if case .assign(let target, _, let op, _) = node, let name = target.laneVariableName { counts[name, default: 0] += op == nil ? 1 : 2 }
            }
        }
        return Set(counts.filter { $0.value > 1 }.keys)
    }

    static func assignedLocalNames(_ body: [RubyNode]) -> Set<String> {
        var names: Set<String> = []
        for statement in body {
            statement.walk { node in
                if case .assign(.name(let name, _), _, _, _) = node { names.insert(name) }
                if case .multipleAssign(let targets, _, _) = node { for case .name(let name, _) in targets { names.insert(name) } }
            }
        }
        return names
    }

    static func mentionsLaneContext(_ body: [RubyNode]) -> Bool {
        var found = false
        for statement in body {
            statement.walk { node in
                if case .name("lane_context", _) = node { found = true }
                if case .call(let call) = node, call.name == "lane_context" { found = true }
            }
        }
        return found
    }

    // MARK: Report

    mutating func record(_ action: String, line: Int, _ outcome: ImportReport.Outcome, _ detail: String) {
        report.actions.append(ImportReport.ActionEntry(lane: lane.name, action: action, line: line, outcome: outcome, detail: detail))
    }

    mutating func drop(_ option: String, of action: String, line: Int, reason: String) {
        report.droppedOptions.append(ImportReport.DroppedOption(lane: lane.name, action: action, option: option, line: line, reason: reason))
    }

    /// A commented `TODO(import)` block with the statement's original text, and the report entries:
    /// one todo for the block, and one per action call inside it.
    mutating func todo(_ statement: RubyNode, reason: String, into emitter: inout LanefileEmitter) {
        let line = statement.position.line
        let text: String
        if case .unreadable(let original, _, _) = statement {
            text = original
        } else {
            text = statementTexts[statement.position] ?? "(line \(line))"
        }
        let quoted = Credentials.redactingLiterals(in: text)
        emitter.comment(line: "TODO(import) Fastfile line \(line): \(reason)", source: line)
        emitter.comment(quoted, source: line)
        report.todos.append(ImportReport.Todo(lane: lane.name, line: line, reason: reason, text: quoted))
        var counted = false
        statement.walk { node in
            guard case .call(let call) = node, isActionCall(call) else { return }
            counted = true
            report.actions.append(ImportReport.ActionEntry(lane: lane.name, action: call.name, line: call.position.line, outcome: .todo, detail: reason))
        }
        if !counted, case .unreadable(let original, _, let position) = statement {
            // Count the actions named in text the parser could not read.
            for word in Self.actionWords(in: original) {
                report.actions.append(ImportReport.ActionEntry(lane: lane.name, action: word, line: position.line, outcome: .todo, detail: reason))
            }
        }
    }

    /// Names in unreadable text that are fastlane actions, each counted once per line.
    static func actionWords(in text: String) -> [String] {
        var words: [String] = []
        for line in text.split(separator: "\n") {
            let trimmed = line.drop { $0 == " " || $0 == "\t" }
            let word = String(trimmed.prefix { $0.isLetter || $0.isNumber || $0 == "_" })
            guard !word.isEmpty, CatalogLookup.action(named: word) != nil, !["sh", "echo", "puts"].contains(word) else { continue }
            words.append(word)
        }
        return words
    }

    /// Ruby's own methods, never fastlane actions.
    static let rubyMethods: Set<String> = [
        "puts", "print", "p", "pp", "require", "require_relative", "raise", "fail", "sleep", "loop", "lambda", "proc", "format",
        "sprintf", "exit", "exit!", "abort", "at_exit", "system", "exec", "fork", "open", "gets", "rand", "srand", "catch", "throw",
        "binding", "block_given?", "caller", "private", "public", "attr_accessor", "include", "extend", "warn", "desc", "lane",
        "private_lane", "platform", "before_all", "after_all", "error", "before_each", "after_each", "lane_context", "options",
        "each", "map", "select", "puts", "Integer", "Float", "String", "Array", "Hash", "__method__", "then", "tap",
    ]

    func isActionCall(_ call: RubyCall) -> Bool {
        if let receiver = call.receiver {
            if case .name("other_action", _) = receiver { return true }
            return false
        }
        if Self.rubyMethods.contains(call.name) || lane.local(call.name) != nil || laneNames[call.name] != nil || helperMethods.contains(call.name) {
            return false
        }
        return CatalogLookup.action(named: call.name) != nil || !call.arguments.isEmpty || !call.keywords.isEmpty
    }

    // MARK: Names

    static let swiftKeywords: Set<String> = [
        "class", "struct", "enum", "protocol", "extension", "func", "let", "var", "if", "else", "switch", "case", "default", "for",
        "while", "repeat", "return", "break", "continue", "in", "do", "catch", "try", "throw", "throws", "import", "self", "Self",
        "super", "init", "deinit", "nil", "true", "false", "is", "as", "where", "guard", "defer", "static", "public", "private",
        "internal", "fileprivate", "open", "operator", "subscript", "typealias", "associatedtype", "inout", "some", "any", "await",
        "lanes", "lane", "error", "env", "secret", "sh", "echo", "fail", "isCI",
    ]

    /// A Swift identifier for a Ruby name: Ruby's `?`/`!` dropped, Swift keywords and lanes' own names avoided.
    func swiftIdentifier(_ name: String) -> String {
        // Scalars Unicode allows in identifiers (XID_Continue): no separator, control or format character.
        var scalars = String.UnicodeScalarView()
        for scalar in name.unicodeScalars where scalar == "_" || scalar.properties.isXIDContinue && !SwiftText.needsEscape(scalar) {
            scalars.append(scalar)
        }
        var identifier = String(scalars)
        if identifier.isEmpty || !(identifier.unicodeScalars.first!.properties.isXIDStart || identifier.first == "_") { identifier = "value" + identifier }
        if Self.swiftKeywords.contains(identifier) || CatalogLookup.stepFunctionNames.contains(identifier) {
            identifier += "Value"
        }
        return identifier
    }

    func camelCase(_ name: String) -> String {
        StepDefinition.functionName(of: name.lowercased())
    }

    func looksSecret(_ name: String) -> Bool { secretNames.isSecret(name) }
}
