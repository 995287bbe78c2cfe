/// Any coder can carry a `JSONValue` (a step's `result`, an option's shown value): objects keep the
/// order their coder gives their keys, which `LanesWire`'s coder keeps as written.
extension JSONValue: Codable {
    public init(from decoder: any Decoder) throws {
        if let single = try? decoder.singleValueContainer() {
            if single.decodeNil() { self = .null; return }
            if let value = try? single.decode(Bool.self) { self = .bool(value); return }
            if let value = try? single.decode(Double.self) { self = .number(value); return }
            if let value = try? single.decode(String.self) { self = .string(value); return }
        }
        if let object = try? decoder.container(keyedBy: JSONKey.self) {
            self = .object(try object.allKeys.map { ($0.stringValue, try object.decode(JSONValue.self, forKey: $0)) })
            return
        }
        var array = try decoder.unkeyedContainer()
        var values: [JSONValue] = []
        while !array.isAtEnd { values.append(try array.decode(JSONValue.self)) }
        self = .array(values)
    }

    public func encode(to encoder: any Encoder) throws {
        switch self {
        case .string(let text):
            var single = encoder.singleValueContainer()
            try single.encode(text)
        case .number(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .bool(let value):
            var single = encoder.singleValueContainer()
            try single.encode(value)
        case .null:
            var single = encoder.singleValueContainer()
            try single.encodeNil()
        case .array(let values):
            var array = encoder.unkeyedContainer()
            for value in values { try array.encode(value) }
        case .object(let fields):
            var object = encoder.container(keyedBy: JSONKey.self)
            for (key, value) in fields { try object.encode(value, forKey: JSONKey(key)) }
        }
    }
}

/// A key named at run time: the fields of an object whose names are data (option names, `JSONValue`).
public struct JSONKey: CodingKey, Sendable, Hashable {
    public let stringValue: String
    public var intValue: Int? { nil }

    public init(_ name: String) { stringValue = name }
    public init?(stringValue: String) { self.stringValue = stringValue }
    public init?(intValue: Int) { stringValue = String(intValue) }
}
