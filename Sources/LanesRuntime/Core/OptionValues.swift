/// A lane's `key:value` options with the environment behind them, read through typed `LaneOption`s
/// by the same `OptionResolver` that builds steps.
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
        var problems: [OptionProblem] = []
        let known = Set(options.flatMap(\.names))
        for name in given.keys.sorted() where !known.contains(name) {
            let names = options.map(\.name).joined(separator: ", ")
            problems.append(OptionProblem("unknown option '\(name)' (options: \(names.isEmpty ? "none" : names))"))
        }
        let resolver = OptionResolver(environment: environment)
        for option in options {
            do {
                let found = try resolver.resolve(option, given: try option.given(in: given).map { GivenOption.text($0.value) }, as: TextOption.self)
                if found.map({ option.accepts($0.value.text) }) == false {
                    let shown = option.isSecret ? Redactor.mask : "'\(found!.value.text)'"
                    let origin = found!.source == .argument ? "the command line" : found!.source.description
                    problems.append(OptionProblem("option '\(option.name)' from \(origin) has value \(shown), which is not a \(option.typeName)"))
                }
                if found == nil && option.isRequired { problems.append(OptionResolver.missing(option)) }
            } catch {
                problems.append(error)
            }
        }
        if !problems.isEmpty { throw ValidationErrors(owner: owner, problems: problems) }
    }

    /// The typed value of a lane option (or its default).
    public subscript<Value: OptionValue>(option: LaneOption<Value>) -> Value {
        get throws {
            let resolver = OptionResolver(environment: environment)
            let given = given[option.info.name].map(GivenOption.text)
            switch Result(catching: { () throws(OptionProblem) in try resolver.resolve(option.info, given: given, as: Value.self) }) {
            case .success(let found?): return found.value
            case .success(nil): break
            case .failure(let problem): throw LanesError(.usage, problem.message)
            }
            guard let value = option.defaultValue else { throw LanesError(.environment, OptionResolver.missing(option.info).message) }
            return value
        }
    }
}

/// Option text before it is typed, for validation passes that check every option whatever its type.
private struct TextOption: OptionValue {
    let text: String
    static var typeName: String { "text" }
    init?(optionText: String) { text = optionText }
}
