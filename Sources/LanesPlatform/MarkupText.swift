/// The one escaper for text that goes into XML (property lists, JUnit reports) or HTML (the web
/// pages): `&`, `<`, `>`, both quotes, and the characters XML 1.0 cannot carry at all (C0 controls
/// other than tab, newline and return; U+FFFE, U+FFFF) replaced with U+FFFD, so a message holding a
/// stray escape byte still yields a well-formed document.
public enum MarkupText {
    public enum Dialect: Sendable {
        /// `'` as `&apos;`.
        case xml
        /// `'` as `&#39;` (`&apos;` is not HTML 4).
        case html
    }

    public static func escape(_ text: String, for dialect: Dialect = .xml) -> String {
        var out = ""
        out.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": out += "&amp;"
            case "<": out += "&lt;"
            case ">": out += "&gt;"
            case "\"": out += "&quot;"
            case "'": out += dialect == .xml ? "&apos;" : "&#39;"
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
