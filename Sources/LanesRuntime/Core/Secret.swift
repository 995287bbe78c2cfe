/// A secret value read from the environment. Printing it never shows the value; the run that
/// produced it redacts the value everywhere lanes writes.
public struct Secret: Sendable, Hashable, CustomStringConvertible, CustomDebugStringConvertible {
    /// The environment variable the value came from, for error messages.
    public let name: String
    /// The value itself: pass it to APIs and child processes through memory or the environment,
    /// never through process arguments.
    public let value: String

    public init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    public var description: String { Redactor.mask }
    public var debugDescription: String { "Secret(\(name): \(Redactor.mask))" }
}

extension Secret: OptionValue {
    public static var typeName: String { "Secret" }
    public static var swiftType: String { "Secret" }
    /// Secret options are read only from the environment (or given as `Secret` in Swift).
    public init?(optionText: String) { self.init(name: "", value: optionText) }
    public init?(optionText: String, variable: String?) { self.init(name: variable ?? "", value: optionText) }
}
