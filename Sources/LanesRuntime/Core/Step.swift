/// A built-in action a lane runs. A step is declared once: its `definition` (id, summary, category,
/// examples) and one `@StepOption` property per option. From that come the generated Lanefile function
/// (`make generate`), `lanes run`'s `key:value` parsing, `lanes actions` and the step reference.
public protocol Step: Sendable {
    associatedtype Output: Sendable = Void

    /// The step's id, summary, category and examples.
    static var definition: StepDefinition { get }

    /// A step whose `@StepOption`s resolve against the resolution in progress (see `Step.resolve`);
    /// outside one, an instance only describes the options.
    init()

    /// Does the work. Output goes through `context.log`, which redacts secrets.
    func run(in context: StepContext) async throws -> Output

    /// One line saying what this particular run does, for the banner; defaults to the summary.
    var banner: String { get }
}

extension Step {
    public var banner: String { Self.definition.summary }

    /// Everything the step says about itself, its options read from its `@StepOption` properties.
    public static var info: StepInfo {
        let options = OptionReflection.options(of: Self())
        return StepInfo(definition: definition, options: options + [OptionInfo.timeout], resultType: StepInfo.resultName(of: Output.self))
    }

    /// Builds the step from arguments and the environment: explicit argument, then environment
    /// variable, then default, for every option; all problems are reported together.
    public static func resolve(_ arguments: StepArguments, environment: Environment = Environment(variables: [:])) throws -> Self {
        try StepResolution.build(Self.self, arguments: arguments, environment: environment).step
    }
}

/// What kind of work a step does; groups `lanes actions` and the step reference.
public enum StepCategory: String, Sendable, CaseIterable {
    case shell, signing, xcode, build, test, upload, git, notify
}

/// The hand-written part of a step's description.
public struct StepDefinition: Sendable {
    /// Snake-case id, as fastlane names actions: `import_certificate`.
    public let id: String
    public let summary: String
    public let category: StepCategory
    public let examples: [StepExample]
    /// Option values `lanes run` uses when neither the command line nor the environment gives
    /// one: a step run alone has no later step to use what it leaves behind (a keychain, say).
    public let standaloneDefaults: [String: String]
    /// Other ids the step answers to (fastlane's `match` for `sync_code_signing`); each also gets
    /// a Lanefile function.
    public let aliases: [String]
    /// Options of fastlane's action that only steer fastlane's own interface (deliver's `force`
    /// skips its HTML preview): accepted from `lanes run` and the importer and ignored, with the
    /// reason as a one-line note in the step's output.
    public let ignoredOptions: [String: String]
    /// Option values an alias implies (`build_mac_app` is build_app with `catalyst_platform: macos`,
    /// as fastlane's action sets it): the alias's Lanefile function and `lanes run ALIAS` pass them
    /// unless the caller gives the option.
    public let aliasArguments: [String: [String: String]]
    /// Whether the step talks to App Store Connect whatever its options: `lanes doctor` names the
    /// lanes that reach it when no API key is configured.
    public let needsAppStoreConnectKey: Bool

    public init(id: String, summary: String, category: StepCategory, examples: [StepExample],
                standaloneDefaults: [String: String] = [:], aliases: [String] = [], aliasArguments: [String: [String: String]] = [:],
                ignoredOptions: [String: String] = [:], needsAppStoreConnectKey: Bool = false) {
        self.needsAppStoreConnectKey = needsAppStoreConnectKey
        self.id = id
        self.aliases = aliases
        self.aliasArguments = aliasArguments
        self.ignoredOptions = ignoredOptions
        self.summary = summary
        self.category = category
        self.examples = examples
        self.standaloneDefaults = standaloneDefaults
    }

    /// The Lanefile function's name: the id in lower camel case (`import_certificate` -> `importCertificate`).
    public var functionName: String { Self.functionName(of: id) }

    /// A snake-case id in lower camel case.
    public static func functionName(of id: String) -> String {
        let words = id.split(separator: "_")
        return words.enumerated().map { $0.offset == 0 ? String($0.element) : $0.element.prefix(1).uppercased() + $0.element.dropFirst() }
            .joined()
    }
}

/// What a step says about itself, complete.
public struct StepInfo: Sendable {
    public let definition: StepDefinition
    public let options: [OptionInfo]
    /// The Swift type of the step's result, as the Lanefile function returns it.
    public let resultType: String

    public var id: String { definition.id }
    public var summary: String { definition.summary }
    public var category: StepCategory { definition.category }
    public var examples: [StepExample] { definition.examples }

    /// The option `name` stands for: its own name or one of its aliases.
    public func option(named name: String) -> OptionInfo? {
        options.first { $0.name == name } ?? options.first { $0.aliases.contains(name) }
    }

    static func resultName(of type: Any.Type) -> String {
        type == Void.self ? "Void" : String(describing: type)
    }
}

/// A documented use of a step, in both spellings. The test suite compiles every `swift` example in
/// one Lanefile and validates every command line, so the documentation cannot drift.
public struct StepExample: Sendable {
    /// How a Lanefile calls the step.
    public let swift: String
    /// The same call as `lanes run` options (`key:value` words).
    public let commandLine: [String]
    /// Environment the example expects (names only: secrets are never written into docs).
    public let environment: [String]

    public init(swift: String, commandLine: [String], environment: [String] = []) {
        self.swift = swift
        self.commandLine = commandLine
        self.environment = environment
    }
}
