/// Escaping for XML 1.0 text and attribute values (property lists, JUnit reports).
enum XMLText {
    /// Escapes `&`, `<`, `>`, `"` and `'`, and replaces the characters XML 1.0 cannot carry at all
    /// (C0 controls other than tab, newline and return; U+FFFE, U+FFFF) with U+FFFD so a test message
    /// holding a stray escape byte still yields a well-formed report.
    static func escape(_ text: String) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += "&apos;"
            case "\t", "\n", "\r": out.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || scalar.value == 0xFFFE || scalar.value == 0xFFFF {
                    out += "\u{FFFD}"
                } else {
                    out.unicodeScalars.append(scalar)
                }
            }
        }
        return out
    }
}
