/// Text from outside (a child's output, a build log, an .ipa's Info.plist, a server's error
/// detail) made safe to print: a terminal acts on control characters (ESC starts sequences that set
/// the window title, clear the screen or move the cursor; CR returns to the line's start to write
/// over it), so each is shown in caret notation (`^[`, `^M`) instead. Tabs stay. The one function
/// for it: every place lanes prints text it did not write goes through here.
public enum TerminalText {
    /// - Parameter keepingLineBreaks: keep LF (a multi-line error message, whose lines lanes
    ///   wrote around the outside text); CR is still shown as `^M`.
    public static func visible(_ text: String, keepingLineBreaks: Bool = false) -> String {
        let clean = text.utf8.withContiguousStorageIfAvailable { !containsControl($0, keepingLineBreaks: keepingLineBreaks) }
        guard clean != true, text.unicodeScalars.contains(where: { isControl($0) && !(keepingLineBreaks && $0 == "\n") }) else { return text }
        var out = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if !isControl(scalar) || (keepingLineBreaks && scalar == "\n") {
                out.append(scalar)
            } else if scalar.value < 0x20 {
                out.append("^")
                out.append(Unicode.Scalar(UInt8(scalar.value) + 0x40))
            } else if scalar.value == 0x7F {
                out.append(contentsOf: "^?".unicodeScalars)
            } else {
                // C1 controls (U+0080...U+009F; U+009B is a one-character CSI).
                out.append(contentsOf: "\\u{\(String(scalar.value, radix: 16))}".unicodeScalars)
            }
        }
        return String(out)
    }

    /// Whether `bytes` are printable ASCII and tabs only: nothing `visible` would change, and
    /// nothing a UTF-8 decoder would repair. Eight bytes at a time.
    public static func isPrintableASCII(_ bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        var index = 0
        while true {
            index = ByteWords.firstWord(from: index, in: bytes) { ByteWords.hasLess($0, 0x20) | ByteWords.hasByte($0, 0x7F) | ByteWords.hasHigh($0) }
            guard index < bytes.count else { return true }
            let end = min(index + 8, bytes.count)
            while index < end {
                let byte = bytes[index]
                if (byte < 0x20 && byte != 0x09) || byte >= 0x7F { return false }
                index += 1
            }
        }
    }

    /// `isControl` over UTF-8, without decoding: a C0 control or DEL is one byte, a C1 control is
    /// 0xC2 followed by 0x80...0x9F.
    static func containsControl(_ bytes: UnsafeBufferPointer<UInt8>, keepingLineBreaks: Bool = false) -> Bool {
        var previous: UInt8 = 0
        for byte in bytes {
            if (byte < 0x20 && byte != 0x09 && !(keepingLineBreaks && byte == 0x0A)) || byte == 0x7F || (previous == 0xC2 && byte >= 0x80 && byte <= 0x9F) { return true }
            previous = byte
        }
        return false
    }

    static func isControl(_ scalar: Unicode.Scalar) -> Bool {
        (scalar.value < 0x20 && scalar != "\t") || (0x7F...0x9F).contains(scalar.value)
    }
}
