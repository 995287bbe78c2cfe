/// A JSON document as a value, with stable key order: what lanes writes (event lines, listings,
/// the web page's API) and what it reads back (`JSONValue(parsing:)`), without Foundation, whose
/// JSONEncoder would cost every lane's start. `LanesWire` encodes and decodes `Codable` records
/// through it.
public indirect enum JSONValue: Sendable, Equatable, ExpressibleByStringLiteral {
    case string(String)
    case number(Double)
    case bool(Bool)
    case null
    case array([JSONValue])
    /// Fields in the order they are written; a parsed object keeps the document's order.
    case object([(String, JSONValue)])

    public init(stringLiteral value: String) { self = .string(value) }

    public var serialized: String {
        var bytes: [UInt8] = []
        append(to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The JSON text appended as UTF-8 to `bytes`.
    public func append(to bytes: inout [UInt8]) {
        switch self {
        case .string(let text): JSONText.appendQuoted(text, to: &bytes)
        case .number(let value): bytes.append(contentsOf: Self.text(of: value).utf8)
        case .bool(let value): bytes.append(contentsOf: (value ? "true" : "false").utf8)
        case .null: bytes.append(contentsOf: "null".utf8)
        case .array(let values):
            bytes.append(UInt8(ascii: "["))
            for (index, value) in values.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                value.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "]"))
        case .object(let fields):
            bytes.append(UInt8(ascii: "{"))
            for (index, field) in fields.enumerated() {
                if index > 0 { bytes.append(UInt8(ascii: ",")) }
                JSONText.appendQuoted(field.0, to: &bytes)
                bytes.append(UInt8(ascii: ":"))
                field.1.append(to: &bytes)
            }
            bytes.append(UInt8(ascii: "}"))
        }
    }

    /// Whole numbers as integers (`3`, not `3.0`); others as Swift prints a Double.
    static func text(of value: Double) -> String {
        guard value.isFinite else { return "null" }
        return value == value.rounded() && abs(value) < 1e15 ? String(Int64(value)) : String(value)
    }

    /// The same value with every string (keys included) passed through `transform`: secrets are
    /// redacted before encoding, so a redaction can never damage the JSON's structure.
    public func mappingStrings(_ transform: (String) -> String) -> JSONValue {
        switch self {
        case .string(let text): .string(transform(text))
        case .number, .bool, .null: self
        case .array(let values): .array(values.map { $0.mappingStrings(transform) })
        case .object(let fields): .object(fields.map { (transform($0.0), $0.1.mappingStrings(transform)) })
        }
    }

    public static func == (lhs: JSONValue, rhs: JSONValue) -> Bool {
        switch (lhs, rhs) {
        case (.string(let left), .string(let right)): left == right
        case (.number(let left), .number(let right)): left == right
        case (.bool(let left), .bool(let right)): left == right
        case (.null, .null): true
        case (.array(let left), .array(let right)): left == right
        case (.object(let left), .object(let right)):
            left.count == right.count && zip(left, right).allSatisfy { $0.0 == $1.0 && $0.1 == $1.1 }
        default: false
        }
    }

    /// The field named `key` of an object (the first, should a document repeat it).
    public subscript(key: String) -> JSONValue? {
        guard case .object(let fields) = self else { return nil }
        return fields.first { $0.0 == key }?.1
    }

    public var stringValue: String? {
        if case .string(let text) = self { return text }
        return nil
    }

    public var numberValue: Double? {
        if case .number(let value) = self { return value }
        return nil
    }
}
