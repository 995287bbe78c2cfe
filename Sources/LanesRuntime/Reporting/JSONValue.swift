internal import LanesPlatform
/// A small JSON writer with stable key order, for event lines and `lanes list --json`, so that the
/// hot path does not load Foundation's JSONEncoder.
public indirect enum JSONValue: Sendable, ExpressibleByStringLiteral {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    case object([(String, JSONValue)])

    public init(stringLiteral value: String) { self = .string(value) }

    public var serialized: String { serialized(redactor: nil) }

    /// The JSON text with every string value redacted before it is quoted, so that no secret, however
    /// short or full of metacharacters, can change the document's structure.
    public func serialized(redactor: Redactor?) -> String {
        switch self {
        case .string(let text): Self.quote(redactor?.redact(text) ?? text)
        case .number(let value):
            value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
        case .bool(let value): value ? "true" : "false"
        case .null: "null"
        case .array(let values): "[" + values.map { $0.serialized(redactor: redactor) }.joined(separator: ",") + "]"
        case .object(let fields):
            "{" + fields.map { Self.quote($0.0) + ":" + $0.1.serialized(redactor: redactor) }
                .joined(separator: ",") + "}"
        }
    }

    /// The same value with every string (keys included) passed through `transform`: secrets are
    /// redacted before encoding, so a redaction can never damage the JSON's structure.
    func mappingStrings(_ transform: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): .string(transform(text))
        case .number, .bool, .null: self
        case .array(let values): .array(values.map { $0.mappingStrings(transform) })
        case .object(let fields): .object(fields.map { (transform($0.0), $0.1.mappingStrings(transform)) })
        }
    }

    static func quote(_ text: String) -> String { JSONText.quote(text) }
}
