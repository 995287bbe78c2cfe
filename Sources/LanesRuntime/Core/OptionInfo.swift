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
    /// The environment variable read when the option is not given.
    public let environmentVariable: String?
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

    public static func == (lhs: OptionInfo, rhs: OptionInfo) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }

    /// The option every step takes: seconds before the step is stopped and its processes ended.
    static let timeout = OptionInfo(
        name: "timeout", summary: "Seconds before the step is stopped and its processes ended (none by default)",
        typeName: Double.typeName, environmentVariable: nil, isSecret: false, defaultText: nil, mayBeAbsent: true,
        swiftName: "timeout", swiftType: "Double?", spelling: .labeled, accepts: { Double(optionText: $0) != nil })

    /// `'name' (or environment variable NAME)`, as errors name an option.
    var reference: String {
        guard let variable = environmentVariable else { return "'\(name)'" }
        return "'\(name)' (or environment variable \(variable))"
    }
}

/// Where an option's value came from: shown in diagnostics and the `--json` step event.
public enum OptionSource: Sendable, Hashable, CustomStringConvertible {
    case argument
    case environment(String)
    case defaultValue

    public var description: String {
        switch self {
        case .argument: "argument"
        case .environment(let variable): "$\(variable)"
        case .defaultValue: "default"
        }
    }
}
