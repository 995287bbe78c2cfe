/// A type a step option can take, parsed from `key:value` text or an environment variable.
public protocol OptionValue: Sendable {
    /// The name shown in documentation, such as `String` or `Bool`.
    static var typeName: String { get }
    /// Parses option text; returns nil when the text is not a value of this type.
    init?(optionText: String)
}

extension String: OptionValue {
    public static var typeName: String { "String" }
    public init?(optionText: String) { self = optionText }
}

extension Int: OptionValue {
    public static var typeName: String { "Int" }
    public init?(optionText: String) { self.init(optionText) }
}

extension Double: OptionValue {
    public static var typeName: String { "Double" }
    public init?(optionText: String) { self.init(optionText) }
}

extension Bool: OptionValue {
    public static var typeName: String { "Bool" }
    public init?(optionText: String) {
        switch optionText.lowercased() {
        case "true", "yes", "1": self = true
        case "false", "no", "0": self = false
        default: return nil
        }
    }
}

extension Array: OptionValue where Element: OptionValue {
    public static var typeName: String { "[\(Element.typeName)]" }
    /// A comma-separated list, as fastlane accepts on the command line.
    public init?(optionText: String) {
        var elements: [Element] = []
        for part in optionText.split(separator: ",", omittingEmptySubsequences: true) {
            guard let element = Element(optionText: String(part)) else { return nil }
            elements.append(element)
        }
        self = elements
    }
}

extension OptionValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    public static var typeName: String { allCases.map(\.rawValue).joined(separator: "|") }
    public init?(optionText: String) { self.init(rawValue: optionText) }
}

/// The description of one option, independent of its type: what documentation and validation use.
public struct OptionInfo: Sendable, Hashable {
    public let name: String
    public let summary: String
    public let typeName: String
    /// The environment variable read when the option is not given.
    public let environmentVariable: String?
    /// Secret values are redacted everywhere and may only come from the environment.
    public let isSecret: Bool
    /// The default, rendered as option text; nil for a required option without default.
    public let defaultText: String?
    public let isOptional: Bool
    /// Validates raw text for this option; returns false if it does not parse.
    let accepts: @Sendable (String) -> Bool

    public var isRequired: Bool { !isOptional && defaultText == nil }

    public static func == (lhs: OptionInfo, rhs: OptionInfo) -> Bool { lhs.name == rhs.name }
    public func hash(into hasher: inout Hasher) { hasher.combine(name) }
}

/// A typed option of a step or a lane: `keychain_name`, read as `String`, falling back to `KEYCHAIN_NAME`.
public struct StepOption<Value: OptionValue>: Sendable {
    public let name: String
    public let summary: String
    public let environmentVariable: String?
    public let isSecret: Bool
    public let defaultValue: Value?
    let defaultText: String?
    let isOptional: Bool

    /// A required option, or one with a default.
    public init(_ name: String, _ summary: String, env: String? = nil, secret: Bool = false,
                default defaultValue: Value? = nil) {
        self.name = name
        self.summary = summary
        self.environmentVariable = env
        self.isSecret = secret
        self.defaultValue = defaultValue
        self.defaultText = defaultValue.map { String(describing: $0) }
        self.isOptional = false
    }

    private init(optional name: String, _ summary: String, env: String?, secret: Bool) {
        self.name = name
        self.summary = summary
        self.environmentVariable = env
        self.isSecret = secret
        self.defaultValue = nil
        self.defaultText = nil
        self.isOptional = true
    }

    /// An option that may be left out: reading it gives nil.
    public static func optional(_ name: String, _ summary: String, env: String? = nil,
                                secret: Bool = false) -> StepOption {
        StepOption(optional: name, summary, env: env, secret: secret)
    }

    public var info: OptionInfo {
        OptionInfo(name: name, summary: summary, typeName: Value.typeName, environmentVariable: environmentVariable,
                   isSecret: isSecret, defaultText: defaultText, isOptional: isOptional,
                   accepts: { Value(optionText: $0) != nil })
    }
}
