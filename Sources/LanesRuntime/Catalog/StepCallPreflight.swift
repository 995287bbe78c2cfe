internal import LanesPlatform
import LanesUpload

/// Finds, in a Lanefile's source, the step calls a lane can reach and the required options none
/// of them will have: not an argument of the call, none of the option's variables set, nothing
/// from the lane's `Configuration`. The lane's start (before its first side effect) and
/// `lanes doctor` report them all at once, so a missing option is never found after match ran or
/// the build number was bumped.
///
/// It reads the source as text: a lane's body (`Lane("NAME", ...) { ... }`) and the bodies of the
/// Lanefile's functions it calls, transitively. A call it cannot see (through a closure variable,
/// another lane, a function in another file) is not checked, so it only ever reports what the
/// step itself would have refused.
public struct StepCallPreflight: Sendable {
    /// One required option a reachable call leaves without a value.
    public struct Gap: Sendable, Hashable, CustomStringConvertible {
        public let lane: String
        public let step: String
        public let option: String
        public let variables: [String]
        public let file: String
        public let line: Int

        public var description: String {
            let variables = switch self.variables.count {
            case 0: ""
            case 1: " or set \(self.variables[0])"
            default: " or set one of \(self.variables.joined(separator: ", "))"
            }
            return "\(file):\(line): lane \(lane): \(step) needs option '\(option)', which nothing gives: pass it\(variables)"
        }
    }

    private struct Body {
        let open: Int
        let close: Int
    }

    private let source: [UInt8]
    private let tokens: [SwiftTokens.Token]
    private let fileName: String
    private let steps: [String: StepInfo]
    /// The steps by their aliases' functions (`pilot(` for upload_to_testflight).
    private let aliasSteps: [String: StepInfo]
    private let lanes: [String: (line: Int, body: Body)]
    private let functions: [String: Body]

    /// `steps` are the steps the Lanefile may call (the catalog and its own).
    public init(source: [UInt8], fileName: String, steps: [StepInfo]) {
        let tokens = SwiftTokens(source).tokens ?? []
        self.source = source
        self.fileName = fileName
        self.tokens = tokens
        self.steps = Dictionary(steps.map { ($0.definition.functionName, $0) }, uniquingKeysWith: { first, _ in first })
        self.aliasSteps = Dictionary(steps.flatMap { step in step.definition.aliases.map { (StepDefinition.functionName(of: $0), step) } },
                                     uniquingKeysWith: { first, _ in first })
        var lanes: [String: (line: Int, body: Body)] = [:]
        var functions: [String: Body] = [:]
        for index in tokens.indices where tokens[index].kind == .identifier {
            switch tokens[index].text(source) {
            case "Lane":
                guard index + 2 < tokens.count, tokens[index + 1].kind == .openParen,
                      let name = Self.stringLiteral(tokens[index + 2].text(source)),
                      let close = Self.closing(tokens, from: index + 1),
                      close + 1 < tokens.count, tokens[close + 1].kind == .openBrace,
                      let end = Self.closing(tokens, from: close + 1)
                else { continue }
                lanes[name] = lanes[name] ?? (tokens[index].line, Body(open: close + 1, close: end))
            case "func":
                guard index + 1 < tokens.count, tokens[index + 1].kind == .identifier,
                      let open = tokens[(index + 2)...].firstIndex(where: { $0.kind == .openBrace && $0.depth == tokens[index].depth }),
                      let end = Self.closing(tokens, from: open)
                else { continue }
                functions[Self.name(tokens[index + 1].text(source))] = Body(open: open, close: end)
            default: continue
            }
        }
        self.lanes = lanes
        self.functions = functions
    }

    /// Whether the source declares lane `name` in a way this reader follows.
    public func finds(lane name: String) -> Bool { lanes[name] != nil }

    /// The gaps of lane `name`. `isSet` says whether a variable has a value in the lane's
    /// environment; `configurationGives` whether the lane's `Configuration` supplies an Appfile
    /// value (nil when unknown: such options are then not reported).
    public func gaps(lane name: String, isSet: (String) -> Bool, configurationGives: (AppfileValue) -> Bool?) -> [Gap] {
        guard lanes[name] != nil else { return [] }
        let reached = reachedBodies(lane: name)
        // A scope that sets a variable or a configuration itself (`withEnvironment(["GYM_SCHEME": ...])`,
        // `withConfiguration(...)`) may give what the lane's environment does not.
        let literals = self.literals(in: reached)
        let scopedConfiguration = reached.contains { body in
            tokens[(body.open + 1)..<body.close].contains { $0.kind == .identifier && $0.text(source) == "withConfiguration" }
        }
        var gaps: [Gap] = []
        for body in reached {
            for index in (body.open + 1)..<body.close where isCall(at: index) {
                guard let step = steps[Self.name(tokens[index].text(source))] else { continue }
                let labels = self.labels(ofCallAt: index)
                // A required option with no variable and no Appfile value is a parameter the compiler
                // already demands; one written without a label cannot be told from here.
                for option in step.options where option.isRequired && option.spelling == .labeled && !labels.contains(option.swiftName)
                    && (!option.environmentVariables.isEmpty || option.appfile != nil) {
                    if option.environmentVariables.contains(where: { isSet($0) || literals.contains($0) }) { continue }
                    if let field = option.appfile, scopedConfiguration || configurationGives(field) != false { continue }
                    gaps.append(Gap(lane: name, step: step.id, option: option.name, variables: option.environmentVariables,
                                    file: fileName, line: tokens[index].line))
                }
            }
        }
        return gaps.sorted { ($0.line, $0.step, $0.option) < ($1.line, $1.step, $1.option) }
    }

    /// One call of a step that talks to App Store Connect (`StepDefinition.needsAppStoreConnectKey`).
    public struct KeyNeed: Sendable, Hashable, CustomStringConvertible {
        public let lane: String
        public let step: String
        public let file: String
        public let line: Int

        public var description: String { "\(step) (\(file):\(line))" }
    }

    /// The calls of lane `name` that need an App Store Connect API key when the lane has none: no
    /// key in its variables (`isSet`: APP_STORE_CONNECT_API_KEY_* or lanes' older ASC_*), none set
    /// by a call of `app_store_connect_api_key` or a scope naming those variables. Empty when it has one.
    public func appStoreConnectKeyNeeds(lane name: String, isSet: (String) -> Bool) -> [KeyNeed] {
        guard lanes[name] != nil else { return [] }
        let reached = reachedBodies(lane: name)
        let literals = self.literals(in: reached)
        let variable = AppStoreConnectKey.Variable.self
        let parts = [[variable.keyID, "ASC_KEY_ID"], [variable.issuerID, "ASC_ISSUER_ID"], [variable.key, variable.keyFilepath, "ASC_PRIVATE_KEY"]]
        if parts.allSatisfy({ names in names.contains { isSet($0) || literals.contains($0) } }) { return [] }
        var needs: [KeyNeed] = []
        for body in reached {
            for index in (body.open + 1)..<body.close where isCall(at: index) {
                let called = Self.name(tokens[index].text(source))
                guard let step = steps[called] ?? aliasSteps[called] else { continue }
                if step.id == AppStoreConnectAPIKeyStep.definition.id { return [] }
                if step.definition.needsAppStoreConnectKey {
                    needs.append(KeyNeed(lane: name, step: step.id, file: fileName, line: tokens[index].line))
                }
            }
        }
        return needs.sorted { ($0.line, $0.step) < ($1.line, $1.step) }
    }

    /// The lane's body and the bodies of the Lanefile's functions it calls, transitively.
    private func reachedBodies(lane name: String) -> [Body] {
        guard let lane = lanes[name] else { return [] }
        var visited: Set<String> = []
        var bodies = [lane.body]
        var reached: [Body] = []
        while let body = bodies.popLast() {
            reached.append(body)
            for index in (body.open + 1)..<body.close where isCall(at: index) {
                let called = Self.name(tokens[index].text(source))
                if steps[called] == nil, let function = functions[called], visited.insert(called).inserted { bodies.append(function) }
            }
        }
        return reached
    }

    /// Every string literal in `bodies` (variable names a scope sets, say).
    private func literals(in bodies: [Body]) -> Set<String> {
        Set(bodies.flatMap { body in tokens[(body.open + 1)..<body.close].compactMap { Self.stringLiteral($0.text(source)) } })
    }

    /// `name(` not preceded by `.` or `func`: a call of a free function.
    private func isCall(at index: Int) -> Bool {
        guard tokens[index].kind == .identifier, index + 1 < tokens.count, tokens[index + 1].kind == .openParen else { return false }
        guard index > 0 else { return true }
        let previous = tokens[index - 1]
        return previous.kind != .period && !(previous.kind == .identifier && previous.text(source) == "func")
    }

    /// The argument labels of the call whose name is at `index`.
    private func labels(ofCallAt index: Int) -> Set<String> {
        let open = index + 1
        guard let close = Self.closing(tokens, from: open) else { return [] }
        var labels: Set<String> = []
        let depth = tokens[open].depth + 1
        for inner in (open + 1)..<close where tokens[inner].kind == .identifier && tokens[inner].depth == depth {
            let before = tokens[inner - 1]
            guard before.kind == .openParen && inner - 1 == open || before.kind == .other && before.text(source) == ",",
                  inner + 1 < close, tokens[inner + 1].kind == .other, tokens[inner + 1].text(source) == ":"
            else { continue }
            labels.insert(Self.name(tokens[inner].text(source)))
        }
        return labels
    }

    /// The index of the bracket closing the one at `open`.
    private static func closing(_ tokens: [SwiftTokens.Token], from open: Int) -> Int? {
        let kind: SwiftTokens.Kind = switch tokens[open].kind {
        case .openParen: .closeParen
        case .openBrace: .closeBrace
        default: .closeBracket
        }
        return tokens[(open + 1)...].firstIndex { $0.kind == kind && $0.depth == tokens[open].depth }
    }

    /// A name without the backticks that let a keyword be one.
    private static func name(_ text: String) -> String {
        text.hasPrefix("`") ? String(text.dropFirst().dropLast()) : text
    }

    /// The text of a plain string literal (`"beta"`); nil for anything else.
    private static func stringLiteral(_ text: String) -> String? {
        guard text.count >= 2, text.hasPrefix("\""), text.hasSuffix("\""), !text.hasPrefix("\"\"\""),
              !text.contains("\\") else { return nil }
        return String(text.dropFirst().dropLast())
    }
}

extension StepCallPreflight {
    /// The lane's start: every gap of `lane` in the Lanefile at `path`, thrown together before the
    /// first side effect. A source lanes cannot read, or a lane declared elsewhere, is not checked.
    static func check(_ lane: Lane, lanefile: Lanefile, path: String, environment: Environment) throws {
        guard let source = try? FilePath.readBytes(path) else { return }
        let steps = (StepCatalog.builtIn + lanefile.steps).map { $0.info }
        let preflight = StepCallPreflight(source: source, fileName: FilePath.name(of: path), steps: steps)
        let configuration = lane.configuration
        func isSet(_ name: String) -> Bool { !(environment[name] ?? "").isEmpty }
        func configurationGives(_ field: AppfileValue) -> Bool? {
            guard let configuration else { return false }
            return field.value(in: configuration) != nil
        }
        let gaps = preflight.gaps(lane: lane.name, isSet: isSet, configurationGives: configurationGives)
        guard !gaps.isEmpty else { return }
        throw ValidationErrors(kind: .environment, problems: gaps.map(\.description))
    }
}
