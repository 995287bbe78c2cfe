/// A translated expression: Swift source and what the importer knows of its type.
struct SwiftValue {
    enum Kind: Hashable {
        case string, optionalString, bool, optionalBool, int, double, strings, secret, void, nilLiteral
        /// A step's result, by Swift type name (`BuiltApp`, `String?`).
        case result(String)
        /// `[String: String]` literal text, usable as a hash argument.
        case dictionary
    }

    let code: String
    let kind: Kind

    init(_ code: String, _ kind: Kind) {
        self.code = code
        self.kind = kind
    }

    /// A Swift string literal of `text`.
    static func literal(_ text: String) -> SwiftValue {
        SwiftValue(SwiftText.literal(text), .string)
    }

    /// Text to put inside a string literal's `\(...)`.
    var interpolated: String? {
        switch kind {
        case .string, .int, .double, .bool: return code
        case .optionalString: return "\(code) ?? \"\""
        case .optionalBool: return "\(code) == true"
        case .strings: return "\(code).joined(separator: \",\")"
        case .result(let type) where type == "String" || type == "Int": return code
        case .result(let type) where type == "String?": return "\(code) ?? \"\""
        default: return nil
        }
    }

    /// The value as a `String`, for string options and comparisons.
    var asString: String? {
        switch kind {
        case .string: return code
        case .result("String"): return code
        case .int, .double, .bool, .result("Int"): return "String(\(code))"
        default: return nil
        }
    }
}
