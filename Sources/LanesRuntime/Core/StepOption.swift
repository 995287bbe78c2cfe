import Synchronization

/// Declares a step option as a property of the step, once: its command-line name, documentation,
/// environment variable, default and secrecy. The property's name is the Swift parameter name of the
/// generated Lanefile function, and its type is the option's type.
///
///     @StepOption("keychain_name", "Name of the keychain created for the lane", env: "KEYCHAIN_NAME")
///     var keychainName: String
///
/// A step is built by resolving every option of a fresh instance (see `StepResolution`); an
/// instance made outside a resolution only describes the options, as `lanes actions` reads them.
@propertyWrapper
public struct StepOption<Value: OptionValue>: Sendable {
    public let info: OptionInfo
    private let resolved: Value?
    /// Where the value came from (`$name`): an argument, its environment variable or the default.
    public let projectedValue: OptionSource?

    public var wrappedValue: Value {
        guard let resolved else {
            preconditionFailure("option '\(info.name)' was read on a step description; build steps with Step.resolve")
        }
        return resolved
    }

    /// An option with a default (when `default` is given), an optional one (when `Value` is
    /// optional), or a required one. `env` is lanes' variable for it; `fastlaneEnv` are the names
    /// fastlane's action reads for the same option (its `env_name`), read after `env`. `aliases`
    /// are the other names a caller may give it (fastlane's, earlier lanes').
    public init(_ name: String, _ summary: String, env: String? = nil, fastlaneEnv: [String] = [], secret: Bool = false,
                default defaultValue: Value? = nil, swift spelling: OptionInfo.SwiftSpelling = .labeled, aliases: [String] = [],
                appfile: AppfileValue? = nil) {
        let fallback = defaultValue ?? (Value.self as? any AbsentOptionValue.Type)?.absent as? Value
        let defaultText = defaultValue.map(optionText(of:))
        let info = OptionInfo(
            name: name, summary: summary, typeName: Value.typeName, environmentVariables: (env.map { [$0] } ?? []) + fastlaneEnv,
            isSecret: secret, defaultText: defaultText, mayBeAbsent: fallback != nil, swiftName: "", swiftType: Value.swiftType,
            spelling: spelling, aliases: aliases, appfile: appfile, accepts: { Value(optionText: $0) != nil })
        self.info = info
        let found = StepResolution.current.flatMap { $0.resolveWithSource(info, as: Value.self, fallback: fallback) }
        self.resolved = found?.value
        self.projectedValue = found?.source
    }
}

/// What `Step.info` reads from an `@StepOption` property without knowing its value type.
protocol OptionDeclaration {
    var info: OptionInfo { get }
}

extension StepOption: OptionDeclaration {}

/// The values a caller gives a step, by option name: typed values from a Lanefile function, or
/// `key:value` text from `lanes run`.
public struct StepArguments: Sendable, ExpressibleByDictionaryLiteral {
    var given: [String: GivenOption]

    public init(dictionaryLiteral elements: (String, (any OptionValue)?)...) {
        given = [:]
        for (name, value) in elements {
            if let value { given[name] = .value(value) }
        }
    }

    /// `key:value` text, as the command line gives it.
    public init(text: [String: String]) {
        given = text.mapValues { .text($0) }
    }

    /// Adds the values an alias implies, for options the caller did not give under any name.
    mutating func imply(_ values: [String: String], options: [OptionInfo]) {
        for (name, text) in values {
            let names = options.first { $0.name == name }?.names ?? [name]
            if !names.contains(where: { given[$0] != nil }) { given[name] = .text(text) }
        }
    }
}

/// The building of one step from its arguments and the environment. Each `@StepOption` of the new
/// instance resolves itself against the resolution in progress, found through a task-local value
/// (a property wrapper's initializer cannot take parameters from the enclosing initializer).
final class StepResolution: Sendable {
    @TaskLocal static var current: StepResolution?

    private let arguments: StepArguments
    private let resolver: OptionResolver
    private let state = Mutex<State>(State())

    private struct State {
        var problems: [OptionProblem] = []
        var consumed: Set<String> = []
        var resolved: [ResolvedOption] = []
    }

    /// The lane's `Configuration`, which options marked `appfile:` fall back to.
    private let configuration: (any Configuration)?

    init(arguments: StepArguments, environment: Environment, configuration: (any Configuration)? = nil) {
        self.arguments = arguments
        self.resolver = OptionResolver(environment: environment)
        self.configuration = configuration
    }

    func resolve<Value: OptionValue>(_ option: OptionInfo, as type: Value.Type, fallback: Value?) -> Value? {
        resolveWithSource(option, as: type, fallback: fallback)?.value
    }

    /// The value and where it came from (nil for an absent optional's `nil`).
    func resolveWithSource<Value: OptionValue>(_ option: OptionInfo, as type: Value.Type, fallback: Value?) -> (value: Value, source: OptionSource?)? {
        do {
            let given = try option.given(in: arguments.given)?.value
            var found = try resolver.resolve(option, given: given, as: Value.self)
            if found == nil, let configuration, let field = option.appfile, let text = field.value(in: configuration), let value = Value(optionText: text) {
                found = (value, .configuration)
            }
            let value = found?.value ?? fallback
            state.withLock { state in
                state.consumed.formUnion(option.names)
                if let value, let source = found?.source ?? (option.defaultText == nil ? nil : .defaultValue) {
                    // Events carry redacted text: a plain option may still hold a secret's value.
                    let shown = option.isSecret ? Redactor.mask : resolver.environment.redactor.redact(optionText(of: value))
                    state.resolved.append(ResolvedOption(name: option.name, source: source, shownValue: shown))
                }
                if value == nil { state.problems.append(OptionResolver.missing(option)) }
            }
            return value.map { ($0, found?.source ?? (option.defaultText == nil ? nil : .defaultValue)) }
        } catch {
            state.withLock {
                $0.consumed.formUnion(option.names)
                $0.problems.append(error)
            }
            return nil
        }
    }

    /// Builds a step: every option resolves, and every problem (unknown names included) is
    /// reported at once, before the step can have any effect.
    static func build<S: Step>(_ type: S.Type, arguments: StepArguments, environment: Environment,
                               configuration: (any Configuration)? = nil) throws -> (step: S, options: [ResolvedOption], timeout: Double?, notes: [String]) {
        let resolution = StepResolution(arguments: arguments, environment: environment, configuration: configuration)
        let step = StepResolution.$current.withValue(resolution) { S() }
        // Every step takes a timeout; it belongs to the run, not to the step's own work.
        let timeout = resolution.resolve(OptionInfo.timeout, as: Double?.self, fallback: .some(nil)) ?? nil
        let ignored = S.definition.ignoredOptions
        let (unknownNames, resolvedProblems, options) = resolution.state.withLock { state in
            (arguments.given.keys.filter { !state.consumed.contains($0) && ignored[$0] == nil }.sorted(), state.problems, state.resolved)
        }
        // The option list (a reflection of the step) is read only when there is an error to explain.
        let known = unknownNames.isEmpty ? [] : S.info.options.map(\.name)
        let problems = unknownNames.map { name in
            OptionProblem("unknown option '\(name)' (options: \(known.joined(separator: ", ")))")
        } + resolvedProblems
        guard problems.isEmpty else { throw ValidationErrors(owner: S.info.id, problems: problems) }
        let notes = arguments.given.keys.sorted().compactMap { name in ignored[name].map { "option '\(name)' ignored: \($0)" } }
        if let timeout, !(timeout > 0) {
            throw ValidationErrors(owner: S.info.id, problems: [OptionProblem("option 'timeout' must be a number of seconds above 0, not \(timeout)")])
        }
        return (step, options, timeout, notes)
    }
}

/// An option value as text, without `Optional(...)` around it.
func optionText(of value: Any) -> String {
    let mirror = Mirror(reflecting: value)
    guard mirror.displayStyle == .optional else {
        // Enumerations show the spelling the command line takes (`exclude_merges`, `ad-hoc`).
        if let raw = (value as? any RawRepresentable)?.rawValue as? String { return raw }
        if let list = value as? [any OptionValue] { return list.map(optionText(of:)).joined(separator: ",") }
        return String(describing: value)
    }
    return mirror.children.first.map { optionText(of: $0.value) } ?? "nil"
}
