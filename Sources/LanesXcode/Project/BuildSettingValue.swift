/// A build setting as written in `buildSettings`: a string, or a list of strings. Encodes to JSON as
/// exactly that, a string or an array of strings.
public enum BuildSettingValue: Sendable, Hashable, Codable, CustomStringConvertible {
    case string(String)
    case array([String])

    init(_ value: PBXValue) {
        switch value {
        case .array(let array): self = .array(array.elements.map { $0.string ?? $0.newValue.plainText })
        case .string(let string): self = .string(string.value)
        default: self = .string(value.newValue.plainText)
        }
    }

    public var newValue: PBXNewValue {
        switch self {
        case .string(let text): .string(text)
        case .array(let items): .array(items.map(PBXNewValue.string))
        }
    }

    /// Shown in reports: the string, or the items separated by spaces in parentheses.
    public var description: String {
        switch self {
        case .string(let text): text
        case .array(let items): "(" + items.joined(separator: " ") + ")"
        }
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.singleValueContainer()
        if let text = try? container.decode(String.self) {
            self = .string(text)
        } else {
            self = .array(try container.decode([String].self))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .string(let text): try container.encode(text)
        case .array(let items): try container.encode(items)
        }
    }
}

extension PBXNewValue {
    /// Text of a non-string value where a string is needed (nested values in settings are rare).
    var plainText: String {
        switch self {
        case .string(let text): text
        case .array(let items): items.map(\.plainText).joined(separator: " ")
        case .dictionary(let entries): entries.keys.sorted().joined(separator: " ")
        }
    }
}
