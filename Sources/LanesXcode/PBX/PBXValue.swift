/// One value of an old-style (OpenStep) property list as read from a `project.pbxproj`, with the byte
/// ranges it occupies in the file so that an edit can replace exactly those bytes and nothing else.
public enum PBXValue: Sendable, Equatable {
    case string(PBXString)
    case data(PBXData)
    // Not `indirect`: containers hold their children in arrays already, so no extra box is needed.
    case array(PBXArray)
    case dictionary(PBXDictionary)

    /// The bytes of the value in the file: the token with its quotes, or the brackets and everything between.
    public var range: Range<Int> {
        switch self {
        case .string(let string): string.range
        case .data(let data): data.range
        case .array(let array): array.range
        case .dictionary(let dictionary): dictionary.range
        }
    }

    public var string: String? {
        if case .string(let string) = self { return string.value }
        return nil
    }

    public var dictionary: PBXDictionary? {
        if case .dictionary(let dictionary) = self { return dictionary }
        return nil
    }

    public var array: PBXArray? {
        if case .array(let array) = self { return array }
        return nil
    }

    /// The strings of an array value (non-string elements skipped), or the single string.
    public var strings: [String]? {
        switch self {
        case .string(let string): [string.value]
        case .array(let array): array.elements.compactMap(\.string)
        default: nil
        }
    }
}

/// A string token: quoted (either quote style) or bare. `value` has every escape decoded.
public struct PBXString: Sendable, Equatable {
    public let value: String
    public let range: Range<Int>
    public let isQuoted: Bool
}

/// A `<hex bytes>` token.
public struct PBXData: Sendable, Equatable {
    public let bytes: [UInt8]
    public let range: Range<Int>
}

/// `( a, b, )`: `range` runs from the opening to just past the closing parenthesis.
public struct PBXArray: Sendable, Equatable {
    public let elements: [PBXValue]
    public let range: Range<Int>
}

/// `key = value;` inside a dictionary. `range` runs from the key's first byte to just past the `;`.
public struct PBXEntry: Sendable, Equatable {
    public let key: PBXString
    public let value: PBXValue
    public let range: Range<Int>
}

/// `{ key = value; ... }` in file order: `range` runs from the opening to just past the closing brace.
public struct PBXDictionary: Sendable, Equatable {
    public let entries: [PBXEntry]
    public let range: Range<Int>

    public subscript(key: String) -> PBXValue? { entry(key)?.value }

    public func entry(_ key: String) -> PBXEntry? {
        entries.first { $0.key.value == key }
    }

    public var keys: [String] { entries.map(\.key.value) }
}
