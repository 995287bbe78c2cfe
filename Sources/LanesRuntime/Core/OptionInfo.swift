/// The description of one option, independent of its type: what documentation, validation, the
/// generated Lanefile functions and `lanes actions --json` read.
public struct OptionInfo: Sendable, Hashable {
    /// How a generated Lanefile function takes the option.
    public enum SwiftSpelling: String, Sendable {
        /// `name: value`, the usual case.
        case labeled
        /// `_ value`, for the one obvious first argument (`addGitTag("v1.0")`).
        case unlabeled
        /// `_ values: T...`, for an argv (`sh("swift", "build")`).
        case variadic
    }

    /// The snake-case name used on the command line: `keychain_name:ci`.
    public let name: String
    public let summary: String
    public let typeName: String
    /// Other names the option answers to, in a Lanefile call's arguments, `lanes run` and the front
    /// doors: fastlane's name for it (`path` for `xcodeproj`) and names earlier lanes used. Declared
    /// once on the option (`@StepOption(..., aliases: ["path"])`); the importer reads them too.
    public let aliases: [String]
    /// The environment variables read, in order, when the option is not given: lanes' own first,
    /// then fastlane's names for it (its options' `env_name`), which a team's CI may already set.
    public let environmentVariables: [String]
    /// The first of `environmentVariables`: the one documentation and errors name first.
    public var environmentVariable: String? { environmentVariables.first }
    /// The lane's `Configuration` value read after the variables (fastlane's Appfile), if any.
    public let appfile: AppfileValue?
    /// Secret values are redacted everywhere and may only come from the environment or Swift.
    public let isSecret: Bool
    /// The default, rendered as option text; nil when there is none.
    public let defaultText: String?
    /// Whether leaving the option out is fine (it has a default, or its type allows absence).
    public let mayBeAbsent: Bool
    /// The Swift parameter name; filled from the property name when a step is reflected.
    public internal(set) var swiftName: String
    public let swiftType: String
    public let spelling: SwiftSpelling
    /// Validates raw text for this option; false when it does not parse.
    let accepts: @Sendable (String) -> Bool

    /// Required: no default, no absence, and the environment may or may not provide it.
    public var isRequired: Bool { !mayBeAbsent }

    /// The option's name and its aliases: every name a caller may use for it.
    public var names: [String] { [name] + aliases }

    init(name: String, summary: String, typeName: String, environmentVariables: [String], isSecret: Bool,
         defaultText: String?, mayBeAbsent: Bool, swiftName: String, swiftType: String, spelling: SwiftSpelling,
         aliases: [String] = [], appfile: AppfileValue? = nil, accepts: @escaping @Sendable (String) -> Bool) {
        self.name = name
        self.summary = summary
        self.typeName = typeName
        self.environmentVariables = environmentVariables
        self.isSecret = isSecret
        self.defaultText = defaultText
        self.mayBeAbsent = mayBeAbsent
        self.swiftName = swiftName
        self.swiftType = swiftType
        self.spelling = spelling
        self.aliases = aliases
        self.appfile = appfile
        self.accepts = accepts
    }

    /// What the caller gave under any of the option's names, with the name used; a problem when
    /// two of its names were given.
    func given<T>(in arguments: [String: T]) throws(OptionProblem) -> (name: String, value: T)? {
        let found = names.compactMap { name in arguments[name].map { (name: name, value: $0) } }
        guard found.count <= 1 else {
            throw OptionProblem("option '\(name)' is given twice (as \(found.map { "'\($0.name)'" }.joined(separator: " and ")))")
        }
        return found.first
    }

    public static func == (lhs: OptionInfo, rhs: OptionInfo) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The option every step takes: seconds before the step is stopped and its processes ended.
    static let timeout = OptionInfo(
        name: "timeout", summary: "Seconds before the step is stopped and its processes ended (none by default)",
        typeName: Double.typeName, environmentVariables: [], isSecret: false, defaultText: nil, mayBeAbsent: true,
        swiftName: "timeout", swiftType: "Double?", spelling: .labeled, accepts: { Double(optionText: $0) != nil })

    /// `'name' (or environment variable NAME)`, as errors name an option.
    var reference: String {
        switch environmentVariables.count {
        case 0: "'\(name)'"
        case 1: "'\(name)' (or environment variable \(environmentVariables[0]))"
        default: "'\(name)' (or environment variables \(environmentVariables.joined(separator: ", ")))"
        }
    }
}

/// Where an option's value came from: shown in diagnostics and the `--json` step event.
public enum OptionSource: Sendable, Hashable, CustomStringConvertible {
    case argument
    case environment(String)
    /// The lane's `Configuration` (what fastlane's Appfile supplies).
    case configuration
    case defaultValue

    public var description: String {
        switch self {
        case .argument: "argument"
        case .environment(let variable): "$\(variable)"
        case .configuration: "Configuration"
        case .defaultValue: "default"
        }
    }
}
