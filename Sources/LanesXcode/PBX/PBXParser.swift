/// Reads an old-style (OpenStep/NeXTSTEP) property list, the format of `project.pbxproj`, keeping byte
/// ranges. Accepts `/* */` and `//` comments, both quote styles, every escape (`\n`, `\U20AC`, octal
/// `\101`, ...), `<hex>` data and UTF-8 text. Errors carry line and column.
public enum PBXParser {
    /// Deepest nesting accepted; real projects stay under 10, so a deeper file is damaged.
    static let maximumDepth = 256

    public static func parse(_ bytes: [UInt8], path: String? = nil) throws(PBXParseError) -> PBXValue {
        let result: Result<PBXValue, PBXParseError> = bytes.withUnsafeBufferPointer { buffer in
            var cursor = Cursor(bytes: buffer)
            do throws(PBXParseError) {
                cursor.skipTrivia()
                let value = try cursor.value(depth: 0)
                cursor.skipTrivia()
                if cursor.position < buffer.count {
                    throw cursor.failure("unexpected text after the end of the property list")
                }
                return .success(value)
            } catch {
                return .failure(error)
            }
        }
        switch result {
        case .success(let value): return value
        case .failure(var error):
            error.path = path
            throw error
        }
    }
}

/// Bytes allowed in a bare (unquoted) string.
@inline(__always)
func isBareStringByte(_ byte: UInt8) -> Bool {
    switch byte {
    case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
         UInt8(ascii: "0")...UInt8(ascii: "9"):
        true
    case UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "+"), UInt8(ascii: "/"), UInt8(ascii: ":"),
         UInt8(ascii: "."), UInt8(ascii: "-"):
        true
    default:
        false
    }
}

private struct Cursor {
    let bytes: UnsafeBufferPointer<UInt8>
    var position = 0

    init(bytes: UnsafeBufferPointer<UInt8>) { self.bytes = bytes }

    func failure(_ reason: String, at offset: Int? = nil) -> PBXParseError {
        PBXParseError(reason: reason, offset: min(offset ?? position, bytes.count), in: bytes)
    }

    var current: UInt8? { position < bytes.count ? bytes[position] : nil }

    /// Skips whitespace and comments.
    mutating func skipTrivia() {
        while position < bytes.count {
            let byte = bytes[position]
            switch byte {
            case UInt8(ascii: " "), UInt8(ascii: "\t"), UInt8(ascii: "\n"), UInt8(ascii: "\r"), 0x0B, 0x0C:
                position += 1
            case UInt8(ascii: "/") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "*"):
                var index = position + 2
                while index + 1 < bytes.count, !(bytes[index] == UInt8(ascii: "*") && bytes[index + 1] == UInt8(ascii: "/")) {
                    index += 1
                }
                // An unterminated comment runs to the end; the caller then reports what is missing.
                position = min(index + 2, bytes.count)
            case UInt8(ascii: "/") where position + 1 < bytes.count && bytes[position + 1] == UInt8(ascii: "/"):
                while position < bytes.count, bytes[position] != UInt8(ascii: "\n"), bytes[position] != UInt8(ascii: "\r") {
                    position += 1
                }
            default:
                return
            }
        }
    }

    mutating func value(depth: Int) throws(PBXParseError) -> PBXValue {
        guard depth < PBXParser.maximumDepth else { throw failure("nesting deeper than \(PBXParser.maximumDepth) levels") }
        guard let byte = current else { throw failure("unexpected end of file; expected a value") }
        switch byte {
        case UInt8(ascii: "{"): return .dictionary(try dictionary(depth: depth))
        case UInt8(ascii: "("): return .array(try array(depth: depth))
        case UInt8(ascii: "<"): return .data(try data())
        default: return .string(try string(expecting: "a value"))
        }
    }

    mutating func dictionary(depth: Int) throws(PBXParseError) -> PBXDictionary {
        let start = position
        position += 1
        var entries: [PBXEntry] = []
        // Most pbxproj dictionaries hold a handful of entries; start with room for them.
        entries.reserveCapacity(8)
        while true {
            skipTrivia()
            guard let byte = current else { throw failure("unexpected end of file; expected '}' to close the dictionary opened", at: start) }
            if byte == UInt8(ascii: "}") {
                position += 1
                return PBXDictionary(entries: entries, range: start..<position)
            }
            let key = try string(expecting: "a key or '}'")
            skipTrivia()
            guard current == UInt8(ascii: "=") else { throw failure("expected '=' after key \"\(key.value)\"") }
            position += 1
            skipTrivia()
            let value = try value(depth: depth + 1)
            skipTrivia()
            guard current == UInt8(ascii: ";") else { throw failure("expected ';' after the value of \"\(key.value)\"") }
            position += 1
            entries.append(PBXEntry(key: key, value: value, range: key.range.lowerBound..<position))
        }
    }

    mutating func array(depth: Int) throws(PBXParseError) -> PBXArray {
        let start = position
        position += 1
        var elements: [PBXValue] = []
        while true {
            skipTrivia()
            guard let byte = current else { throw failure("unexpected end of file; expected ')' to close the array opened", at: start) }
            if byte == UInt8(ascii: ")") {
                position += 1
                return PBXArray(elements: elements, range: start..<position)
            }
            elements.append(try value(depth: depth + 1))
            skipTrivia()
            if current == UInt8(ascii: ",") {
                position += 1
            } else if current != UInt8(ascii: ")") {
                throw failure("expected ',' or ')' in array")
            }
        }
    }

    mutating func data() throws(PBXParseError) -> PBXData {
        let start = position
        position += 1
        var result: [UInt8] = []
        var pending: UInt8?
        while let byte = current, byte != UInt8(ascii: ">") {
            position += 1
            if byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t") || byte == UInt8(ascii: "\n") || byte == UInt8(ascii: "\r") {
                continue
            }
            guard let nibble = hexValue(byte) else { throw failure("expected a hexadecimal digit in <data>", at: position - 1) }
            if let high = pending {
                result.append(high << 4 | nibble)
                pending = nil
            } else {
                pending = nibble
            }
        }
        guard current == UInt8(ascii: ">") else { throw failure("unexpected end of file; expected '>' to close data", at: start) }
        guard pending == nil else { throw failure("odd number of hexadecimal digits in <data>") }
        position += 1
        return PBXData(bytes: result, range: start..<position)
    }

    mutating func string(expecting expected: String) throws(PBXParseError) -> PBXString {
        guard let byte = current else { throw failure("unexpected end of file; expected \(expected)") }
        if byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'") {
            return try quotedString(quote: byte)
        }
        let start = position
        while position < bytes.count, isBareStringByte(bytes[position]) { position += 1 }
        guard position > start else {
            throw failure("unexpected character '\(printable(byte))'; expected \(expected)")
        }
        let text = String(decoding: UnsafeBufferPointer(rebasing: bytes[start..<position]), as: UTF8.self)
        return PBXString(value: text, range: start..<position, isQuoted: false)
    }

    mutating func quotedString(quote: UInt8) throws(PBXParseError) -> PBXString {
        let start = position
        position += 1
        var hasEscape = false
        while position < bytes.count, bytes[position] != quote {
            if bytes[position] == UInt8(ascii: "\\") {
                hasEscape = true
                position += 1
            }
            position += 1
        }
        guard position < bytes.count else { throw failure("unexpected end of file; the string opened here is not closed", at: start) }
        let body = UnsafeBufferPointer(rebasing: bytes[(start + 1)..<position])
        position += 1
        let text: String
        if hasEscape {
            text = try unescape(body, bodyOffset: start + 1)
        } else {
            guard let decoded = String(validating: body, as: UTF8.self) else {
                throw failure("string is not valid UTF-8", at: start)
            }
            text = decoded
        }
        return PBXString(value: text, range: start..<position, isQuoted: true)
    }

    /// Decodes backslash escapes. Octal escapes above 0x7F are read as Latin-1: the NeXTSTEP encoding
    /// CFPropertyList uses there agrees with it for letters, and Xcode itself never writes them.
    func unescape(_ body: UnsafeBufferPointer<UInt8>, bodyOffset: Int) throws(PBXParseError) -> String {
        var output: [UInt8] = []
        output.reserveCapacity(body.count)
        var index = 0
        var pendingHighSurrogate: UInt32?
        func appendScalar(_ value: UInt32, into output: inout [UInt8]) {
            let scalar = Unicode.Scalar(value) ?? "\u{FFFD}"
            output.append(contentsOf: Array(String(Character(scalar)).utf8))
        }
        while index < body.count {
            let byte = body[index]
            guard byte == UInt8(ascii: "\\"), index + 1 < body.count else {
                if let high = pendingHighSurrogate { appendScalar(high, into: &output); pendingHighSurrogate = nil }
                output.append(byte)
                index += 1
                continue
            }
            let escaped = body[index + 1]
            index += 2
            if escaped == UInt8(ascii: "U") || escaped == UInt8(ascii: "u") {
                var code: UInt32 = 0
                var digits = 0
                while digits < 4, index < body.count, let nibble = hexValue(body[index]) {
                    code = code << 4 | UInt32(nibble)
                    index += 1
                    digits += 1
                }
                guard digits > 0 else {
                    throw failure("\\U must be followed by hexadecimal digits", at: bodyOffset + index)
                }
                if (0xD800...0xDBFF).contains(code) {
                    if let high = pendingHighSurrogate { appendScalar(high, into: &output) }
                    pendingHighSurrogate = code
                    continue
                }
                if (0xDC00...0xDFFF).contains(code), let high = pendingHighSurrogate {
                    appendScalar(0x10000 + ((high - 0xD800) << 10) + (code - 0xDC00), into: &output)
                    pendingHighSurrogate = nil
                    continue
                }
                if let high = pendingHighSurrogate { appendScalar(high, into: &output); pendingHighSurrogate = nil }
                appendScalar(code, into: &output)
                continue
            }
            if let high = pendingHighSurrogate { appendScalar(high, into: &output); pendingHighSurrogate = nil }
            switch escaped {
            case UInt8(ascii: "a"): output.append(0x07)
            case UInt8(ascii: "b"): output.append(0x08)
            case UInt8(ascii: "f"): output.append(0x0C)
            case UInt8(ascii: "n"): output.append(0x0A)
            case UInt8(ascii: "r"): output.append(0x0D)
            case UInt8(ascii: "t"): output.append(0x09)
            case UInt8(ascii: "v"): output.append(0x0B)
            case UInt8(ascii: "0")...UInt8(ascii: "7"):
                var code = UInt32(escaped - UInt8(ascii: "0"))
                var digits = 1
                while digits < 3, index < body.count, (UInt8(ascii: "0")...UInt8(ascii: "7")).contains(body[index]) {
                    code = code << 3 | UInt32(body[index] - UInt8(ascii: "0"))
                    index += 1
                    digits += 1
                }
                appendScalar(code, into: &output)
            default:
                output.append(escaped)
            }
        }
        if let high = pendingHighSurrogate { appendScalar(high, into: &output) }
        guard let text = String(validating: output, as: UTF8.self) else {
            throw failure("string is not valid UTF-8", at: bodyOffset - 1)
        }
        return text
    }
}

@inline(__always)
private func hexValue(_ byte: UInt8) -> UInt8? {
    switch byte {
    case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
    case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
    case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
    default: nil
    }
}

private func printable(_ byte: UInt8) -> String {
    if (0x21...0x7E).contains(byte) { return String(UnicodeScalar(byte)) }
    let digits = Array("0123456789ABCDEF")
    return "\\x" + String(digits[Int(byte >> 4)]) + String(digits[Int(byte & 0x0F)])
}
