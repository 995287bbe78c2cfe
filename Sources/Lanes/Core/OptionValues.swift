/// Raw `key:value` options with the environment behind them, read through typed `StepOption`s.
public struct OptionValues: Sendable {
    /// What the command line or the caller gave, by option name.
    public let given: [String: String]
    public let environment: Environment

    public init(given: [String: String] = [:], environment: Environment) {
        self.given = given
        self.environment = environment
    }

    /// Parses `key:value` words, as `lanes run` and lanes take them.
    public static func parse(_ words: [String]) throws -> [String: String] {
        var result: [String: String] = [:]
        for word in words {
            guard let colon = word.firstIndex(of: ":"), colon != word.startIndex else {
                throw LanesError(.usage, "option '\(word)' is not of the form key:value")
            }
            let key = String(word[..<colon])
            guard result[key] == nil else { throw LanesError(.usage, "option '\(key)' is given twice") }
            result[key] = String(word[word.index(after: colon)...])
        }
        return result
    }

    /// Checks every given and declared option at once and reports all problems together:
    /// unknown names, secrets given as arguments, unparsable values, required options missing.
    public func validate(against options: [OptionInfo], for owner: String) throws {
        var problems: [String] = []
        let known = Set(options.map(\.name))
        for name in given.keys.sorted() where !known.contains(name) {
            let names = options.map(\.name).joined(separator: ", ")
            problems.append("\(owner): unknown option '\(name)' (options: \(names.isEmpty ? "none" : names))")
        }
        for option in options {
            let source = rawText(for: option)
            if option.isSecret, given[option.name] != nil {
                let variable = option.environmentVariable.map { "set \($0) instead" } ?? "pass it through the environment"
                problems.append("\(owner): option '\(option.name)' is secret and cannot be given as an argument; \(variable)")
                continue
            }
            guard let (text, origin) = source else {
                if option.isRequired { problems.append("\(owner): missing required option \(describe(option))") }
                continue
            }
            if !option.accepts(text) {
                let shown = option.isSecret ? Redactor.mask : "'\(text)'"
                problems.append("\(owner): option '\(option.name)' from \(origin) has value \(shown), which is not a \(option.typeName)")
            }
        }
        if !problems.isEmpty {
            let kind: ErrorKind = problems.allSatisfy { $0.contains("missing required") } ? .environment : .usage
            throw ValidationErrors(kind: kind, problems: problems)
        }
    }

    /// The value of a required option (or its default).
    public subscript<Value>(option: StepOption<Value>) -> Value {
        get throws {
            if let value = try read(option) { return value }
            if let value = option.defaultValue { return value }
            throw LanesError(.environment, "missing required option \(describe(option.info))")
        }
    }

    /// The value of an optional option, nil when neither given nor in the environment.
    public func optional<Value>(_ option: StepOption<Value>) throws -> Value? {
        try read(option) ?? option.defaultValue
    }

    private func read<Value>(_ option: StepOption<Value>) throws -> Value? {
        guard let (text, origin) = rawText(for: option.info) else { return nil }
        if option.isSecret {
            environment.redactor.register(text)
            if Value.self == Secret.self {
                return Secret(name: option.environmentVariable ?? option.name, value: text) as? Value
            }
        }
        guard let value = Value(optionText: text) else {
            let shown = option.isSecret ? Redactor.mask : "'\(text)'"
            throw LanesError(.usage, "option '\(option.name)' from \(origin) has value \(shown), which is not a \(Value.typeName)")
        }
        return value
    }

    private func rawText(for option: OptionInfo) -> (String, String)? {
        if let text = given[option.name] { return (text, "the command line") }
        if let variable = option.environmentVariable, let text = environment[variable], !text.isEmpty {
            return (text, "$\(variable)")
        }
        return nil
    }

    private func describe(_ option: OptionInfo) -> String {
        guard let variable = option.environmentVariable else { return "'\(option.name)'" }
        return "'\(option.name)' (or environment variable \(variable))"
    }
}
