/// The forms one secret value takes in output, all of which are masked:
/// - the value itself;
/// - the value without trailing whitespace (`tok\n`, `tok\r\n` print as `tok`), and without
///   leading whitespace either;
/// - each line of a multi-line value (a PEM key, a JSON credential), without its indentation and
///   line ending, as a program printing the value line by line shows it. Lines shorter than
///   `minimumLineLength` (`{`, `}`) are skipped: masking them would mask every brace in the log and
///   they carry nothing of the secret.
struct SecretShapes {
    static let minimumLineLength = 4
    let patterns: [[UInt8]]
    /// The base64 shapes among `patterns`, also searched across wrapped lines (`WrappedBase64`).
    let base64: [[UInt8]]
    let isShort: Bool

    init(_ value: String) {
        var found: [[UInt8]] = []
        func add(_ bytes: some Collection<UInt8>) {
            let shape = Array(bytes)
            if !shape.isEmpty, !found.contains(shape) { found.append(shape) }
        }
        let bytes = Array(value.utf8)
        add(bytes)
        let trimmed = bytes.trimmingTrailing(where: Self.isSpace)
        add(trimmed)
        // Leading whitespace goes too when a shell prints the value unquoted (`echo $TOKEN`).
        add(trimmed.drop(while: Self.isSpace))
        if trimmed.contains(UInt8(ascii: "\n")) {
            for line in trimmed.split(separator: UInt8(ascii: "\n")) {
                let content = line.drop(while: Self.isSpace).trimmingTrailing(where: Self.isSpace)
                if content.count >= Self.minimumLineLength { add(content) }
            }
        }
        isShort = !bytes.isEmpty && String(decoding: trimmed, as: UTF8.self).count < Redactor.shortSecretLength
        // Encoded shapes (as GitHub's runner masks them): a child that prints the secret in base64,
        // percent-encoded or JSON-escaped leaks it just the same. Skipped for short secrets, whose
        // encodings are short enough to mask ordinary text.
        var base64: [[UInt8]] = []
        if !isShort {
            let plain = found
            for shape in plain {
                for encoded in Self.base64Shapes(shape) where encoded.count >= Self.minimumEncodedLength {
                    add(encoded)
                    if !base64.contains(encoded) { base64.append(encoded) }
                }
                for encoded in [Self.percentEncoded(shape, upper: true), Self.percentEncoded(shape, upper: false),
                                Self.percentEncoded(shape, upper: true, spaceAsPlus: true), Self.jsonEscaped(shape, slash: false),
                                Self.jsonEscaped(shape, slash: true)] {
                    add(encoded)
                }
                // A form encoder writes a space as `+` and may leave other characters alone
                // (Python's `quote_plus` keeps `/`): once the decoded view (`DecodedText`) has
                // undone the `%XX` escapes, what remains is the value with `+` for its spaces.
                if shape.contains(UInt8(ascii: " ")) {
                    add(shape.map { $0 == UInt8(ascii: " ") ? UInt8(ascii: "+") : $0 })
                }
            }
        }
        patterns = found
        self.base64 = base64
    }

    /// Encoded shapes shorter than this are not masked (they would mask ordinary words).
    static let minimumEncodedLength = 8

    static let base64Alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    /// The base64 text the value produces wherever it sits in an encoded stream: the stream groups
    /// bytes by three, so the value starts a group, or its first one or two bytes end the group
    /// before. For each alignment, the characters that depend on the value's bytes alone (whole
    /// groups), in the standard and the URL-safe alphabet.
    static func base64Shapes(_ value: [UInt8]) -> [[UInt8]] {
        var shapes: [[UInt8]] = []
        for skip in 0..<3 where value.count > skip {
            let rest = value.dropFirst(skip)
            let whole = rest.count / 3 * 3
            guard whole > 0 else { continue }
            var text: [UInt8] = []
            var index = rest.startIndex
            while index < rest.startIndex + whole {
                let group = UInt32(rest[index]) << 16 | UInt32(rest[index + 1]) << 8 | UInt32(rest[index + 2])
                for shift in [18, 12, 6, 0] { text.append(base64Alphabet[Int(group >> UInt32(shift) & 63)]) }
                index += 3
            }
            shapes.append(text)
            let urlSafe = text.map { $0 == UInt8(ascii: "+") ? UInt8(ascii: "-") : $0 == UInt8(ascii: "/") ? UInt8(ascii: "_") : $0 }
            if urlSafe != text { shapes.append(urlSafe) }
        }
        return shapes
    }

    /// RFC 3986 percent-encoding (unreserved characters kept), with upper or lower-case digits,
    /// and the form-encoding variant that writes a space as `+`.
    static func percentEncoded(_ value: [UInt8], upper: Bool, spaceAsPlus: Bool = false) -> [UInt8] {
        let digits = Array((upper ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var out: [UInt8] = []
        for byte in value {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                out.append(byte)
            case UInt8(ascii: " ") where spaceAsPlus:
                out.append(UInt8(ascii: "+"))
            default:
                out += [UInt8(ascii: "%"), digits[Int(byte >> 4)], digits[Int(byte & 15)]]
            }
        }
        return out
    }

    /// The value inside a JSON string: quotes, backslashes and control characters escaped (and
    /// `/` as `\/`, as some encoders write it).
    static func jsonEscaped(_ value: [UInt8], slash: Bool) -> [UInt8] {
        let hex = Array("0123456789abcdef".utf8)
        var out: [UInt8] = []
        for byte in value {
            switch byte {
            case UInt8(ascii: "\""): out += Array("\\\"".utf8)
            case UInt8(ascii: "\\"): out += Array("\\\\".utf8)
            case UInt8(ascii: "/") where slash: out += Array("\\/".utf8)
            case 0x0A: out += Array("\\n".utf8)
            case 0x0D: out += Array("\\r".utf8)
            case 0x09: out += Array("\\t".utf8)
            case 0x08: out += Array("\\b".utf8)
            case 0x0C: out += Array("\\f".utf8)
            case 0..<0x20: out += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
            default: out.append(byte)
            }
        }
        return out
    }

    static func isSpace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\r") || byte == UInt8(ascii: "\n")
    }
}

extension Collection where Element == UInt8 {
    func trimmingTrailing(where isTrimmed: (UInt8) -> Bool) -> [UInt8] {
        var result = Array(self)
        while let last = result.last, isTrimmed(last) { result.removeLast() }
        return result
    }
}
