public import LanesPlatform

/// `Codable` values to and from JSON without Foundation: the runner writes its event lines and
/// listing with this on every start, where Foundation's JSONEncoder would cost milliseconds of
/// loading. Keys come out in the order a value encodes them (a synthesized `Codable` follows the
/// declaration), nil optionals are left out, and integers are written without a fraction. Numbers
/// travel as `Double`: integers are exact up to 2^53.
public struct WireEncoder: Sendable {
    public init() {}

    public func encode(_ value: some Encodable) throws -> JSONValue {
        let root = EncodingNode()
        try value.encode(to: NodeEncoder(node: root, codingPath: []))
        return root.value
    }

    /// The JSON text of `value` as UTF-8.
    public func encodeBytes(_ value: some Encodable) throws -> [UInt8] {
        var bytes: [UInt8] = []
        try encode(value).append(to: &bytes)
        return bytes
    }

    public func encodeText(_ value: some Encodable) throws -> String {
        try encode(value).serialized
    }
}

/// Reads what `WireEncoder` writes (and any JSON of the same shape). Unknown keys are ignored, so
/// a reader of an older schema reads a newer document's known fields.
public struct WireDecoder: Sendable {
    public init() {}

    public func decode<Value: Decodable>(_ type: Value.Type, from value: JSONValue) throws -> Value {
        try Value(from: NodeDecoder(value: value, codingPath: []))
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from bytes: some Collection<UInt8>) throws -> Value {
        try decode(type, from: try JSONValue(parsing: bytes))
    }

    public func decode<Value: Decodable>(_ type: Value.Type, from text: String) throws -> Value {
        try decode(type, from: try JSONValue(parsing: text))
    }
}

// MARK: - Encoding

/// A value under construction: containers hand out child nodes and write into them later.
private final class EncodingNode {
    enum Content {
        case unset
        case value(JSONValue)
        case object([(String, EncodingNode)])
        case array([EncodingNode])
    }
    var content = Content.unset

    var value: JSONValue {
        switch content {
        case .unset: .object([])
        case .value(let value): value
        case .object(let fields): .object(fields.map { ($0.0, $0.1.value) })
        case .array(let nodes): .array(nodes.map(\.value))
        }
    }

    /// The child for `key`, replacing one written before under the same key.
    func child(for key: String) -> EncodingNode {
        let node = EncodingNode()
        var fields: [(String, EncodingNode)] = []
        if case .object(let existing) = content { fields = existing }
        if let index = fields.firstIndex(where: { $0.0 == key }) { fields[index].1 = node } else { fields.append((key, node)) }
        content = .object(fields)
        return node
    }

    func appended() -> EncodingNode {
        let node = EncodingNode()
        var nodes: [EncodingNode] = []
        if case .array(let existing) = content { nodes = existing }
        nodes.append(node)
        content = .array(nodes)
        return node
    }

    var count: Int {
        if case .array(let nodes) = content { return nodes.count }
        return 0
    }

    func becomeObject() { if case .object = content {} else { content = .object([]) } }
    func becomeArray() { if case .array = content {} else { content = .array([]) } }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.becomeObject()
        return KeyedEncodingContainer(KeyedNodeEncoder<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.becomeArray()
        return UnkeyedNodeEncoder(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleNodeEncoder(node: node, codingPath: codingPath)
    }
}

/// Numbers as `JSONValue` holds them.
private func number(_ value: some BinaryInteger) -> JSONValue { .number(Double(value)) }

private struct KeyedNodeEncoder<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, _ key: Key) { node.child(for: key.stringValue).content = .value(value) }

    mutating func encodeNil(forKey key: Key) throws { set(.null, key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(.number(value), key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(.number(Double(value)), key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(number(value), key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(number(value), key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(number(value), key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(number(value), key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(number(value), key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(number(value), key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(number(value), key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(number(value), key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(number(value), key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(number(value), key) }

    mutating func encode(_ value: some Encodable, forKey key: Key) throws {
        let child = node.child(for: key.stringValue)
        try value.encode(to: NodeEncoder(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        let child = node.child(for: key.stringValue)
        child.becomeObject()
        return KeyedEncodingContainer(KeyedNodeEncoder<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        let child = node.child(for: key.stringValue)
        child.becomeArray()
        return UnkeyedNodeEncoder(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.child(for: "super"), codingPath: codingPath + [JSONKey("super")])
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: node.child(for: key.stringValue), codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeEncoder: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var count: Int { node.count }

    private func append(_ value: JSONValue) { node.appended().content = .value(value) }
    private var nextKey: JSONKey { JSONKey(intValue: count)! }

    mutating func encodeNil() throws { append(.null) }
    mutating func encode(_ value: Bool) throws { append(.bool(value)) }
    mutating func encode(_ value: String) throws { append(.string(value)) }
    mutating func encode(_ value: Double) throws { append(.number(value)) }
    mutating func encode(_ value: Float) throws { append(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { append(number(value)) }
    mutating func encode(_ value: Int8) throws { append(number(value)) }
    mutating func encode(_ value: Int16) throws { append(number(value)) }
    mutating func encode(_ value: Int32) throws { append(number(value)) }
    mutating func encode(_ value: Int64) throws { append(number(value)) }
    mutating func encode(_ value: UInt) throws { append(number(value)) }
    mutating func encode(_ value: UInt8) throws { append(number(value)) }
    mutating func encode(_ value: UInt16) throws { append(number(value)) }
    mutating func encode(_ value: UInt32) throws { append(number(value)) }
    mutating func encode(_ value: UInt64) throws { append(number(value)) }

    mutating func encode(_ value: some Encodable) throws {
        let key = nextKey
        try value.encode(to: NodeEncoder(node: node.appended(), codingPath: codingPath + [key]))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        let child = node.appended()
        child.becomeObject()
        return KeyedEncodingContainer(KeyedNodeEncoder<NestedKey>(node: child, codingPath: codingPath + [key]))
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        let child = node.appended()
        child.becomeArray()
        return UnkeyedNodeEncoder(node: child, codingPath: codingPath + [key])
    }

    mutating func superEncoder() -> any Encoder {
        let key = nextKey
        return NodeEncoder(node: node.appended(), codingPath: codingPath + [key])
    }
}

private struct SingleNodeEncoder: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue) { node.content = .value(value) }

    mutating func encodeNil() throws { set(.null) }
    mutating func encode(_ value: Bool) throws { set(.bool(value)) }
    mutating func encode(_ value: String) throws { set(.string(value)) }
    mutating func encode(_ value: Double) throws { set(.number(value)) }
    mutating func encode(_ value: Float) throws { set(.number(Double(value))) }
    mutating func encode(_ value: Int) throws { set(number(value)) }
    mutating func encode(_ value: Int8) throws { set(number(value)) }
    mutating func encode(_ value: Int16) throws { set(number(value)) }
    mutating func encode(_ value: Int32) throws { set(number(value)) }
    mutating func encode(_ value: Int64) throws { set(number(value)) }
    mutating func encode(_ value: UInt) throws { set(number(value)) }
    mutating func encode(_ value: UInt8) throws { set(number(value)) }
    mutating func encode(_ value: UInt16) throws { set(number(value)) }
    mutating func encode(_ value: UInt32) throws { set(number(value)) }
    mutating func encode(_ value: UInt64) throws { set(number(value)) }

    mutating func encode(_ value: some Encodable) throws {
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
    }
}

// MARK: - Decoding

private struct NodeDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let fields) = value else {
            throw DecodingError.typeMismatch([String: JSONValue].self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(value.kindName)"))
        }
        return KeyedDecodingContainer(KeyedNodeDecoder<Key>(fields: fields, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let values) = value else {
            throw DecodingError.typeMismatch([JSONValue].self, .init(codingPath: codingPath, debugDescription: "expected an array, found \(value.kindName)"))
        }
        return UnkeyedNodeDecoder(values: values, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        SingleNodeDecoder(value: value, codingPath: codingPath)
    }
}

extension JSONValue {
    /// What a type mismatch names.
    var kindName: String {
        switch self {
        case .string: "a string"
        case .number: "a number"
        case .bool: "a boolean"
        case .null: "null"
        case .array: "an array"
        case .object: "an object"
        }
    }
}

/// Scalars out of a `JSONValue`, with the coding path for errors.
private enum Scalar {
    static func mismatch<T>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) -> DecodingError {
        if case .null = value {
            return DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "expected \(type), found null"))
        }
        return DecodingError.typeMismatch(type, .init(codingPath: path, debugDescription: "expected \(type), found \(value.kindName)"))
    }

    static func bool(_ value: JSONValue, _ path: [any CodingKey]) throws -> Bool {
        guard case .bool(let flag) = value else { throw mismatch(Bool.self, value, path) }
        return flag
    }

    static func string(_ value: JSONValue, _ path: [any CodingKey]) throws -> String {
        guard case .string(let text) = value else { throw mismatch(String.self, value, path) }
        return text
    }

    static func double(_ value: JSONValue, _ path: [any CodingKey]) throws -> Double {
        guard case .number(let number) = value else { throw mismatch(Double.self, value, path) }
        return number
    }

    static func integer<T: BinaryInteger>(_ type: T.Type, _ value: JSONValue, _ path: [any CodingKey]) throws -> T {
        guard case .number(let number) = value else { throw mismatch(type, value, path) }
        guard let integer = T(exactly: number) else {
            throw DecodingError.dataCorrupted(.init(codingPath: path, debugDescription: "\(number) is not a \(type)"))
        }
        return integer
    }
}

private struct KeyedNodeDecoder<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let fields: [(String, JSONValue)]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { fields.compactMap { Key(stringValue: $0.0) } }

    func contains(_ key: Key) -> Bool { fields.contains { $0.0 == key.stringValue } }

    private func value(_ key: Key) throws -> JSONValue {
        guard let found = fields.first(where: { $0.0 == key.stringValue }) else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "no field \"\(key.stringValue)\""))
        }
        return found.1
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(key) == .null }
    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try Scalar.bool(value(key), codingPath + [key]) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try Scalar.string(value(key), codingPath + [key]) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try Scalar.double(value(key), codingPath + [key]) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { Float(try Scalar.double(value(key), codingPath + [key])) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try Scalar.integer(type, value(key), codingPath + [key]) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try Scalar.integer(type, value(key), codingPath + [key]) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try Scalar.integer(type, value(key), codingPath + [key]) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try Scalar.integer(type, value(key), codingPath + [key]) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try Scalar.integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try Scalar.integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try Scalar.integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try Scalar.integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try Scalar.integer(type, value(key), codingPath + [key]) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try Scalar.integer(type, value(key), codingPath + [key]) }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try T(from: NodeDecoder(value: try value(key), codingPath: codingPath + [key]))
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try NodeDecoder(value: try value(key), codingPath: codingPath + [key]).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try NodeDecoder(value: try value(key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        NodeDecoder(value: fields.first { $0.0 == "super" }?.1 ?? .null, codingPath: codingPath + [JSONKey("super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        NodeDecoder(value: fields.first { $0.0 == key.stringValue }?.1 ?? .null, codingPath: codingPath + [key])
    }
}

private struct UnkeyedNodeDecoder: UnkeyedDecodingContainer {
    let values: [JSONValue]
    let codingPath: [any CodingKey]
    var currentIndex = 0

    init(values: [JSONValue], codingPath: [any CodingKey]) {
        self.values = values
        self.codingPath = codingPath
    }

    var count: Int? { values.count }
    var isAtEnd: Bool { currentIndex >= values.count }

    private var path: [any CodingKey] { codingPath + [JSONKey(intValue: currentIndex)!] }

    private mutating func next<T>(_ type: T.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: path, debugDescription: "the array has only \(values.count) elements"))
        }
        defer { currentIndex += 1 }
        return values[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        guard !isAtEnd, values[currentIndex] == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { let at = path; return try Scalar.bool(next(type), at) }
    mutating func decode(_ type: String.Type) throws -> String { let at = path; return try Scalar.string(next(type), at) }
    mutating func decode(_ type: Double.Type) throws -> Double { let at = path; return try Scalar.double(next(type), at) }
    mutating func decode(_ type: Float.Type) throws -> Float { let at = path; return Float(try Scalar.double(next(type), at)) }
    mutating func decode(_ type: Int.Type) throws -> Int { let at = path; return try Scalar.integer(type, next(type), at) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { let at = path; return try Scalar.integer(type, next(type), at) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { let at = path; return try Scalar.integer(type, next(type), at) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { let at = path; return try Scalar.integer(type, next(type), at) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { let at = path; return try Scalar.integer(type, next(type), at) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { let at = path; return try Scalar.integer(type, next(type), at) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { let at = path; return try Scalar.integer(type, next(type), at) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { let at = path; return try Scalar.integer(type, next(type), at) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { let at = path; return try Scalar.integer(type, next(type), at) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { let at = path; return try Scalar.integer(type, next(type), at) }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let at = path
        return try T(from: NodeDecoder(value: try next(type), codingPath: at))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let at = path
        return try NodeDecoder(value: try next(JSONValue.self), codingPath: at).container(keyedBy: type)
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let at = path
        return try NodeDecoder(value: try next(JSONValue.self), codingPath: at).unkeyedContainer()
    }

    mutating func superDecoder() throws -> any Decoder {
        let at = path
        return NodeDecoder(value: try next(JSONValue.self), codingPath: at)
    }
}

private struct SingleNodeDecoder: SingleValueDecodingContainer {
    let value: JSONValue
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool { value == .null }
    func decode(_ type: Bool.Type) throws -> Bool { try Scalar.bool(value, codingPath) }
    func decode(_ type: String.Type) throws -> String { try Scalar.string(value, codingPath) }
    func decode(_ type: Double.Type) throws -> Double { try Scalar.double(value, codingPath) }
    func decode(_ type: Float.Type) throws -> Float { Float(try Scalar.double(value, codingPath)) }
    func decode(_ type: Int.Type) throws -> Int { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int8.Type) throws -> Int8 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int16.Type) throws -> Int16 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int32.Type) throws -> Int32 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: Int64.Type) throws -> Int64 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt.Type) throws -> UInt { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try Scalar.integer(type, value, codingPath) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try Scalar.integer(type, value, codingPath) }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try T(from: NodeDecoder(value: value, codingPath: codingPath))
    }
}
