import Foundation
import Lanes
import LanesPlatform

/// Escaping for the formats `lanes export` writes. Lane, secret and variable names are identifiers
/// (the Lanefile refuses others), but seeds, zones, paths, job names and images are free text, and
/// every value is escaped for where it lands anyway: one format's harmless character is another's
/// command (`$(...)` in a workflow's shell, `%` in a unit file, a newline anywhere).
enum ExportText {
    /// Text for a comment line in any format: control characters and Unicode line breaks (which
    /// YAML also honours) written as escapes, so the comment cannot end early.
    static func oneLine(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar.value {
            case 0x0A: result += "\\n"
            case 0x0D: result += "\\r"
            case 0x09: result += "\\t"
            case 0..<0x20, 0x7F, 0x85, 0x2028, 0x2029, 0xFFFE, 0xFFFF: result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// A double-quoted string that YAML and JSON read alike.
    static func quoted(_ text: String) -> String { JSONValue.string(text).serialized }

    /// One POSIX shell word: single-quoted unless made of characters no shell treats specially.
    static func shellWord(_ text: String) -> String {
        let plain = !text.isEmpty && text.unicodeScalars.allSatisfy {
            CharacterSet.alphanumerics.contains($0) && $0.isASCII || "_-./:=@+,".unicodeScalars.contains($0)
        }
        return plain ? text : "'" + text.replacingOccurrences(of: "'", with: #"'\''"#) + "'"
    }

    /// A Groovy single-quoted string (no `${}` interpolation in those).
    static func groovy(_ text: String) -> String {
        "'" + oneLine(text.replacingOccurrences(of: "\\", with: "\\\\")).replacingOccurrences(of: "'", with: "\\'") + "'"
    }

    /// A systemd unit-file value in which `%` would start a specifier and `$` a variable.
    static func systemdValue(_ text: String) -> String {
        oneLine(text).replacingOccurrences(of: "%", with: "%%")
    }

    /// One word of a systemd command line (`ExecStart=`): double-quoted, with `\` and `"` escaped,
    /// `%` and `$` doubled, so spaces or quotes in the value cannot add arguments.
    static func systemdWord(_ text: String) -> String {
        let escaped = oneLine(text.replacingOccurrences(of: "\\", with: "\\\\")).replacingOccurrences(of: "\"", with: "\\\"")
            .replacingOccurrences(of: "%", with: "%%").replacingOccurrences(of: "$", with: "$$")
        return "\"" + escaped + "\""
    }

    /// `[A-Za-z_][A-Za-z0-9_]*`: what a secret's or variable's name must be to become a key in
    /// every format (the Lanefile already refuses others; an export never trusts that alone).
    static func isIdentifier(_ name: String) -> Bool {
        name.range(of: "^[A-Za-z_][A-Za-z0-9_]*$", options: .regularExpression) != nil
    }
}
