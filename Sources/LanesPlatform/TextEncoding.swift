/// JSON string literals, for every hand-written JSON document (events, manifests, JWTs): one escaper.
public enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func quote(_ text: String) -> String {
        // Byte by byte: every character that needs an escape is one byte in UTF-8, and no byte of a
        // longer sequence is below 0x80. Most text (a build log's lines) is one scan and one copy.
        var text = text
        return text.withUTF8 { bytes in
            guard bytes.contains(where: needsEscape) else { return "\"" + String(decoding: bytes, as: UTF8.self) + "\"" }
            let hex = Array("0123456789abcdef".utf8)
            var result: [UInt8] = [UInt8(ascii: "\"")]
            result.reserveCapacity(bytes.count + 16)
            for byte in bytes {
                switch byte {
                case UInt8(ascii: "\""): result += [UInt8(ascii: "\\"), UInt8(ascii: "\"")]
                case UInt8(ascii: "\\"): result += [UInt8(ascii: "\\"), UInt8(ascii: "\\")]
                case 0x0A: result += [UInt8(ascii: "\\"), UInt8(ascii: "n")]
                case 0x0D: result += [UInt8(ascii: "\\"), UInt8(ascii: "r")]
                case 0x09: result += [UInt8(ascii: "\\"), UInt8(ascii: "t")]
                case ..<0x20: result += Array("\\u00".utf8) + [hex[Int(byte >> 4)], hex[Int(byte & 15)]]
                default: result.append(byte)
                }
            }
            result.append(UInt8(ascii: "\""))
            return String(decoding: result, as: UTF8.self)
        }
    }

    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }
}

/// Bytes as hexadecimal, two digits a byte: digests, serial numbers, random passwords.
public enum Hex {
    public static func encode(_ bytes: some Sequence<UInt8>, uppercase: Bool = false) -> String {
        let digits = Array((uppercase ? "0123456789ABCDEF" : "0123456789abcdef").utf8)
        var text: [UInt8] = []
        text.reserveCapacity(bytes.underestimatedCount * 2)
        for byte in bytes {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }

    /// The bytes of an even number of hex digits (either case); nil for anything else.
    public static func decode(_ text: String) -> [UInt8]? {
        let characters = Array(text.utf8)
        guard characters.count.isMultiple(of: 2) else { return nil }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(characters.count / 2)
        var index = 0
        while index < characters.count {
            guard let high = value(of: characters[index]), let low = value(of: characters[index + 1]) else { return nil }
            bytes.append(high << 4 | low)
            index += 2
        }
        return bytes
    }

    private static func value(of digit: UInt8) -> UInt8? {
        switch digit {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): digit - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): digit - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): digit - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}

/// RFC 3986 percent-encoding: for URL paths and queries (S3 keys, the web pages' links) and for
/// reading request targets.
public enum PercentEncoding {
    /// Every byte but the unreserved characters (`A-Z a-z 0-9 - . _ ~`) and those in `keeping` as `%XX`.
    public static func encode(_ text: String, keeping: Set<UInt8> = []) -> String {
        var result = ""
        for byte in text.utf8 {
            switch byte {
            case UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                 UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            case _ where keeping.contains(byte):
                result.unicodeScalars.append(Unicode.Scalar(byte))
            default:
                result += "%" + Hex.encode([byte], uppercase: true)
            }
        }
        return result
    }

    /// Decodes `%XX` escapes (and `+` as a space in a form's query when `plusIsSpace`) into UTF-8;
    /// nil on a bad escape or invalid UTF-8.
    public static func decode(_ text: String, plusIsSpace: Bool = false) -> String? {
        var bytes: [UInt8] = []
        var iterator = Array(text.utf8).makeIterator()
        while let byte = iterator.next() {
            switch byte {
            case UInt8(ascii: "%"):
                guard let high = iterator.next(), let low = iterator.next(),
                      let value = Hex.decode(String(decoding: [high, low], as: UTF8.self))?.first else { return nil }
                bytes.append(value)
            case UInt8(ascii: "+") where plusIsSpace: bytes.append(UInt8(ascii: " "))
            default: bytes.append(byte)
            }
        }
        return String(validating: bytes, as: UTF8.self)
    }
}
