#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif

/// A type an option can take. The same text parsing serves `key:value` on the command line and an
/// environment-variable fallback; a Lanefile passes typed values directly.
public protocol OptionValue: Sendable {
    /// The name shown in documentation, such as `String`, `Bool` or `ad-hoc|app-store|...`.
    static var typeName: String { get }
    /// How the type is spelled in Swift, for the generated Lanefile functions.
    static var swiftType: String { get }
    /// Parses option text; returns nil when the text is not a value of this type.
    init?(optionText: String)
    /// Parses text read from `variable`; a `Secret` remembers the name for its hints.
    init?(optionText: String, variable: String?)
}

extension OptionValue {
    /// The type's own name. The common types spell theirs out: printing a type's name costs a
    /// demangling, which every lane option once paid at every start.
    public static var swiftType: String { String(describing: Self.self) }
    public init?(optionText: String, variable: String?) { self.init(optionText: optionText) }
}

extension String: OptionValue {
    public static var typeName: String { "String" }
    public static var swiftType: String { "String" }
    public init?(optionText: String) { self = optionText }
}

extension Int: OptionValue {
    public static var typeName: String { "Int" }
    public static var swiftType: String { "Int" }
    public init?(optionText: String) { self.init(optionText) }
}

extension Double: OptionValue {
    public static var typeName: String { "Double" }
    public static var swiftType: String { "Double" }
    public init?(optionText: String) { self.init(optionText) }
}

extension Bool: OptionValue {
    public static var typeName: String { "Bool" }
    public static var swiftType: String { "Bool" }
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
    public static var swiftType: String { "[\(Element.swiftType)]" }
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

/// An option whose value may be absent: reading it gives nil rather than an error.
extension Optional: OptionValue where Wrapped: OptionValue {
    public static var typeName: String { Wrapped.typeName }
    public static var swiftType: String { "\(Wrapped.swiftType)?" }
    public init?(optionText: String) { self.init(optionText: optionText, variable: nil) }
    public init?(optionText: String, variable: String?) {
        guard let value = Wrapped(optionText: optionText, variable: variable) else { return nil }
        self = .some(value)
    }
}

/// Types with a natural "not given" value, so an option of that type needs no default.
protocol AbsentOptionValue {
    static var absent: Self { get }
}

extension Optional: AbsentOptionValue {
    static var absent: Self { nil }
}

extension OptionValue where Self: RawRepresentable & CaseIterable, RawValue == String {
    public static var typeName: String { allCases.map(\.rawValue).joined(separator: "|") }
    public init?(optionText: String) { self.init(rawValue: optionText) }
}

/// Text by key (release notes by language): a JSON object of strings, or one `KEY=TEXT` pair, on the
/// command line and in a variable; a dictionary literal in a Lanefile.
extension Dictionary: OptionValue where Key == String, Value == String {
    public static var typeName: String { "[String: String]" }
    public static var swiftType: String { "[String: String]" }
    public init?(optionText: String) {
        if optionText.first == "{" {
            guard let object = try? JSONDecoder().decode([String: String].self, from: Data(optionText.utf8)) else { return nil }
            self = object
            return
        }
        guard let equals = optionText.firstIndex(of: "="), equals != optionText.startIndex else { return nil }
        self = [String(optionText[..<equals]): String(optionText[optionText.index(after: equals)...])]
    }
}
