/// How Xcode spells a string in `project.pbxproj`: bare when every character is in `[A-Za-z0-9_$./]`,
/// it is not empty, holds no `//` and does not start with `___`; otherwise double-quoted with `\\`,
/// `\"`, `\n`, `\t` (and `\Uxxxx` for other control characters) escaped. Non-ASCII stays UTF-8.
public enum PBXQuoting {
    public static func needsQuotes(_ text: String) -> Bool {
        if text.isEmpty || text.hasPrefix("___") || text.contains("//") { return true }
        return text.utf8.contains { !isXcodeBareByte($0) }
    }

    public static func render(_ text: String) -> String {
        guard needsQuotes(text) else { return text }
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                result += "\\U" + String(repeating: "0", count: 4 - hex.count) + hex
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result + "\""
    }

    private static func isXcodeBareByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"),
             UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "_"), UInt8(ascii: "$"), UInt8(ascii: "."),
             UInt8(ascii: "/"):
            true
        default:
            false
        }
    }
}
