/// Text with one encoding undone, and where each decoded byte came from: a secret found in the
/// decoded bytes is masked in the text as it was printed, escapes and all.
///
/// Encoders differ in what they leave alone (Python's `quote` keeps `/`, `encodeURIComponent`
/// keeps `!'()*`, `json.dumps` writes `ü` as `\u00fc`, Go writes `<` as `\u003c`), and a value
/// with k special characters has 2^k such forms: undoing the encoding and searching the plain
/// shapes finds all of them at once.
struct DecodedText {
    private(set) var bytes: [UInt8] = []
    /// For each decoded byte, the range of the text it was decoded from (one escape, or itself).
    private var starts: [Int] = []
    private var ends: [Int] = []

    /// The range of the original text that a range of decoded bytes came from.
    func source(of range: Range<Int>) -> Range<Int> {
        starts[range.lowerBound]..<ends[range.upperBound - 1]
    }

    private mutating func append(_ byte: UInt8, from source: Range<Int>) {
        bytes.append(byte)
        starts.append(source.lowerBound)
        ends.append(source.upperBound)
    }

    private init(capacity: Int) {
        bytes.reserveCapacity(capacity)
        starts.reserveCapacity(capacity)
        ends.reserveCapacity(capacity)
    }

    /// `%XX` escapes (either case of hex digits) decoded; nil when the text has none.
    static func percentDecoded(_ text: UnsafeBufferPointer<UInt8>) -> DecodedText? {
        guard let first = text.firstIndex(of: UInt8(ascii: "%")), hasPercentEscape(text, from: first) else { return nil }
        var decoded = DecodedText(capacity: text.count)
        var index = 0
        while index < text.count {
            if text[index] == UInt8(ascii: "%"), index + 2 < text.count,
               let high = hexValue(text[index + 1]), let low = hexValue(text[index + 2]) {
                decoded.append(high << 4 | low, from: index..<index + 3)
                index += 3
            } else {
                decoded.append(text[index], from: index..<index + 1)
                index += 1
            }
        }
        return decoded
    }

    /// JSON string escapes decoded (`\"`, `\\`, `\/`, `\n` and the other letters, and `\uXXXX`
    /// with surrogate pairs, into UTF-8); nil when the text has none. An escape that is not valid
    /// JSON stays as it is.
    static func jsonUnescaped(_ text: UnsafeBufferPointer<UInt8>) -> DecodedText? {
        guard text.contains(UInt8(ascii: "\\")) else { return nil }
        var decoded = DecodedText(capacity: text.count)
        var changed = false
        var index = 0
        while index < text.count {
            guard text[index] == UInt8(ascii: "\\"), index + 1 < text.count else {
                decoded.append(text[index], from: index..<index + 1)
                index += 1
                continue
            }
            if let simple = simpleEscape(text[index + 1]) {
                decoded.append(simple, from: index..<index + 2)
                index += 2
                changed = true
            } else if let (scalar, length) = unicodeEscape(text, at: index) {
                for byte in String(Character(scalar)).utf8 { decoded.append(byte, from: index..<index + length) }
                index += length
                changed = true
            } else {
                decoded.append(text[index], from: index..<index + 1)
                index += 1
            }
        }
        return changed ? decoded : nil
    }

    private static func hasPercentEscape(_ text: UnsafeBufferPointer<UInt8>, from start: Int) -> Bool {
        var index = start
        while index + 2 < text.count {
            if text[index] == UInt8(ascii: "%"), hexValue(text[index + 1]) != nil, hexValue(text[index + 2]) != nil { return true }
            index += 1
        }
        return false
    }

    private static func simpleEscape(_ letter: UInt8) -> UInt8? {
        switch letter {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), UInt8(ascii: "/"): letter
        case UInt8(ascii: "n"): 0x0A
        case UInt8(ascii: "r"): 0x0D
        case UInt8(ascii: "t"): 0x09
        case UInt8(ascii: "b"): 0x08
        case UInt8(ascii: "f"): 0x0C
        default: nil
        }
    }

    /// `\uXXXX` at `index` (a surrogate pair takes two escapes): the scalar and the escape's length.
    private static func unicodeEscape(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> (Unicode.Scalar, Int)? {
        guard let unit = codeUnit(text, at: index) else { return nil }
        if (0xD800..<0xDC00).contains(unit) {
            guard let low = codeUnit(text, at: index + 6), (0xDC00..<0xE000).contains(low) else { return nil }
            let value = 0x10000 + ((unit - 0xD800) << 10) + (low - 0xDC00)
            return Unicode.Scalar(value).map { ($0, 12) }
        }
        return Unicode.Scalar(unit).map { ($0, 6) }
    }

    private static func codeUnit(_ text: UnsafeBufferPointer<UInt8>, at index: Int) -> UInt32? {
        guard index + 6 <= text.count, text[index] == UInt8(ascii: "\\"), text[index + 1] == UInt8(ascii: "u") else { return nil }
        var value: UInt32 = 0
        for offset in 2..<6 {
            guard let digit = hexValue(text[index + offset]) else { return nil }
            value = value << 4 | UInt32(digit)
        }
        return value
    }

    private static func hexValue(_ byte: UInt8) -> UInt8? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): byte - UInt8(ascii: "0")
        case UInt8(ascii: "a")...UInt8(ascii: "f"): byte - UInt8(ascii: "a") + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): byte - UInt8(ascii: "A") + 10
        default: nil
        }
    }
}
