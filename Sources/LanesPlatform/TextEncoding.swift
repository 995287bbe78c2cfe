/// JSON string literals, for every hand-written JSON document (events, manifests, JWTs): one escaper.
public enum JSONText {
    /// `text` as a JSON string literal: quotes, backslashes and control characters escaped.
    public static func quote(_ text: String) -> String {
        var bytes: [UInt8] = []
        appendQuoted(text, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// `quote`, appended as UTF-8 to `bytes` (an event line being built, without a `String` for it).
    /// Byte by byte: every character that needs an escape is one byte in UTF-8, and no byte of a
    /// longer sequence is below 0x80; the runs between escapes are copied whole.
    public static func appendQuoted(_ text: String, to bytes: inout [UInt8]) {
        var text = text
        text.withUTF8 { source in
            bytes.append(UInt8(ascii: "\""))
            var start = 0
            for index in source.indices where needsEscape(source[index]) {
                bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
                appendEscape(for: source[index], to: &bytes)
                start = index + 1
            }
            bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...]))
            bytes.append(UInt8(ascii: "\""))
        }
    }

    /// `appendQuoted` for text already in UTF-8 (a step's output line, valid UTF-8): eight bytes at
    /// a time while none needs an escape, which is nearly every byte of a build log. Neither variant
    /// reserves capacity: called per line on a growing buffer (a batch of events), an exact
    /// reservation would copy the whole buffer each time instead of growing it geometrically.
    public static func appendQuoted(utf8 source: UnsafeBufferPointer<UInt8>, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\""))
        var start = 0
        var index = 0
        if let base = source.baseAddress {
            while true {
                index = ByteWords.firstWord(from: index, in: source) { ByteWords.hasLess($0, 0x20) | ByteWords.hasByte($0, 0x22) | ByteWords.hasByte($0, 0x5C) }
                guard index < source.count else { break }
                let end = min(index + 8, source.count)
                while index < end {
                    if needsEscape(base[index]) {
                        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start..<index]))
                        appendEscape(for: base[index], to: &bytes)
                        start = index + 1
                    }
                    index += 1
                }
            }
        }
        bytes.append(contentsOf: UnsafeBufferPointer(rebasing: source[start...]))
        bytes.append(UInt8(ascii: "\""))
    }

    @inline(__always)
    private static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\")
    }

    private static func appendEscape(for byte: UInt8, to bytes: inout [UInt8]) {
        bytes.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"): bytes.append(byte)
        case 0x0A: bytes.append(UInt8(ascii: "n"))
        case 0x0D: bytes.append(UInt8(ascii: "r"))
        case 0x09: bytes.append(UInt8(ascii: "t"))
        default:
            let hex = Array("0123456789abcdef".utf8)
            bytes += [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hex[Int(byte >> 4)], hex[Int(byte & 15)]]
        }
    }
}

/// Questions about many bytes answered eight at a time (SWAR: a 64-bit word as eight lanes), for
/// the output path, where a scalar loop over each byte costs as much as `cat` does in all.
public enum ByteWords {
    static let ones: UInt64 = 0x0101_0101_0101_0101
    static let highs: UInt64 = 0x8080_8080_8080_8080

    /// Whether some byte of `word` is below `limit` (at most 0x80); exact as a yes or no.
    @inline(__always)
    public static func hasLess(_ word: UInt64, _ limit: UInt8) -> UInt64 {
        (word &- ones &* UInt64(limit)) & ~word & highs
    }

    /// Whether some byte of `word` is `byte`; exact as a yes or no.
    @inline(__always)
    public static func hasByte(_ word: UInt64, _ byte: UInt8) -> UInt64 {
        let difference = word ^ (ones &* UInt64(byte))
        return (difference &- ones) & ~difference & highs
    }

    /// Whether some byte of `word` is 0x80 or above (not ASCII).
    @inline(__always)
    public static func hasHigh(_ word: UInt64) -> UInt64 { word & highs }

    /// The offset of the first eight-byte word at or after `start` for which `flags` is not zero
    /// (the last, shorter word is read byte by byte into a zero-padded one), or `bytes.count` when
    /// none is. The caller looks at the bytes of that word one by one.
    @inline(__always)
    public static func firstWord(from start: Int, in bytes: UnsafeBufferPointer<UInt8>, _ flags: (UInt64) -> UInt64) -> Int {
        guard let base = bytes.baseAddress else { return bytes.count }
        let raw = UnsafeRawPointer(base)
        var offset = start
        while offset + 8 <= bytes.count {
            if flags(raw.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) != 0 { return offset }
            offset += 8
        }
        guard offset < bytes.count else { return bytes.count }
        // The tail: padded with spaces, which no caller flags.
        var word: UInt64 = 0x2020_2020_2020_2020
        withUnsafeMutableBytes(of: &word) { padded in
            for index in offset..<bytes.count { padded[index - offset] = base[index] }
        }
        return flags(word) != 0 ? offset : bytes.count
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

/// RFC 4648 base64: HTTP Basic credentials, JWTs (the URL alphabet without padding), request bodies.
public enum Base64 {
    public static func encode(_ bytes: some Collection<UInt8>) -> String {
        let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)
        let bytes = Array(bytes)
        var out = [UInt8]()
        out.reserveCapacity((bytes.count + 2) / 3 * 4)
        var index = 0
        while index < bytes.count {
            let count = min(3, bytes.count - index)
            let b0 = bytes[index]
            let b1 = count > 1 ? bytes[index + 1] : 0
            let b2 = count > 2 ? bytes[index + 2] : 0
            out.append(alphabet[Int(b0 >> 2)])
            out.append(alphabet[Int((b0 & 0x03) << 4 | b1 >> 4)])
            out.append(count > 1 ? alphabet[Int((b1 & 0x0f) << 2 | b2 >> 6)] : UInt8(ascii: "="))
            out.append(count > 2 ? alphabet[Int(b2 & 0x3f)] : UInt8(ascii: "="))
            index += 3
        }
        return String(decoding: out, as: UTF8.self)
    }

    /// The URL alphabet (`-` and `_`) without padding, as JWTs use.
    public static func encodeURL(_ bytes: some Collection<UInt8>) -> String {
        String(encode(bytes).compactMap { character -> Character? in
            switch character {
            case "+": "-"
            case "/": "_"
            case "=": nil
            default: character
            }
        })
    }
}
