/// A value the caller gave for an option: text from the command line, or a typed value from Swift.
public enum GivenOption: Sendable {
    case text(String)
    case value(any OptionValue)
}

/// An option value found for a step or a lane, as shown in diagnostics (secrets masked).
public struct ResolvedOption: Sendable, Hashable {
    public let name: String
    public let source: OptionSource
    /// The value as text, `********` for a secret.
    public let shownValue: String
}

/// The one place option values are looked up, for the Lanefile functions, `lanes run` and lane
/// options alike: the explicit argument, then the environment variable, then the default.
struct OptionResolver: Sendable {
    let environment: Environment

    /// Finds and parses the value of `option`; nil when neither given nor in the environment (the
    /// caller then takes the default, or reports the option missing). Secret values register with
    /// the redactor before anything else can see them.
    func resolve<Value: OptionValue>(_ option: OptionInfo, given: GivenOption?,
                                     as type: Value.Type) throws(OptionProblem) -> (value: Value, source: OptionSource)? {
        switch given {
        case .value(let value)?:
            guard let typed = value as? Value else {
                throw OptionProblem("option '\(option.name)' takes a \(Value.typeName), not a \(Swift.type(of: value).typeName)")
            }
            if let secret = typed as? Secret { environment.redactor.register(secret.value) }
            return (typed, .argument)
        case .text(let text)?:
            guard !option.isSecret else {
                let fix = option.environmentVariable.map { "set \($0) instead" } ?? "pass it through the environment"
                throw OptionProblem("option '\(option.name)' is secret and cannot be given as an argument; \(fix)")
            }
            return (try parse(text, for: option, from: "the command line", variable: nil), .argument)
        case nil:
            // lanes' own variable first, then fastlane's names for the option.
            guard let (variable, text) = option.environmentVariables.lazy
                .compactMap({ name in self.environment[name].flatMap { $0.isEmpty ? nil : (name, $0) } }).first else { return nil }
            if option.isSecret { environment.redactor.register(text) }
            return (try parse(text, for: option, from: "$\(variable)", variable: variable), .environment(variable))
        }
    }

    private func parse<Value: OptionValue>(_ text: String, for option: OptionInfo, from origin: String,
                                           variable: String?) throws(OptionProblem) -> Value {
        guard let value = Value(optionText: text, variable: variable) else {
            let shown = option.isSecret ? Redactor.mask : "'\(text)'"
            throw OptionProblem("option '\(option.name)' from \(origin) has value \(shown), which is not a \(option.typeName)")
        }
        return value
    }

    /// The problem for a required option nobody gave.
    static func missing(_ option: OptionInfo) -> OptionProblem {
        OptionProblem("missing required option \(option.reference)", isMissing: true)
    }
}

/// One thing wrong with one option; a validation pass collects all of them.
struct OptionProblem: Error, Sendable {
    let message: String
    /// A missing value is the environment's fault (78); a malformed one is a usage error (64).
    let isMissing: Bool

    init(_ message: String, isMissing: Bool = false) {
        self.message = message
        self.isMissing = isMissing
    }
}

extension ValidationErrors {
    /// All problems of one step or lane, as one error: missing values only is an environment
    /// problem, anything else a usage problem.
    init(owner: String, problems: [OptionProblem]) {
        self.init(kind: problems.allSatisfy(\.isMissing) ? .environment : .usage,
                  problems: problems.map { "\(owner): \($0.message)" })
    }
}
