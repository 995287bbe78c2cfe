/// The one way text from a Fastfile reaches the Lanefile: as a Swift string literal or as comment
/// text. Both escape the same scalars, so nothing the Fastfile says can end a literal or a `//`
/// comment, start an interpolation, or hide itself from a reader (bidirectional overrides).
/// Code the importer writes names Fastfile text only through `literal`, `commentLines` and `commentLine`.
enum SwiftText {
    /// Line terminators as editors show them (CR LF, CR, LF, NEL, LS, PS), each as one LF: a
    /// Fastfile's lines are counted as its author saw them, and none of these survives parsing raw.
    static func normalisingLineEnds(_ text: String) -> String {
        guard text.unicodeScalars.contains(where: { isLineTerminator($0) && $0 != "\n" }) else { return text }
        var result = String.UnicodeScalarView()
        var previousWasCR = false
        for scalar in text.unicodeScalars {
            if scalar == "\n", previousWasCR {
                previousWasCR = false
                continue
            }
            previousWasCR = scalar == "\r"
            result.append(isLineTerminator(scalar) ? "\n" : scalar)
        }
        return String(result)
    }

    /// The lines (1-based, after `normalisingLineEnds`) that start after a line end only an editor
    /// shows: a lone CR, NEL, LS or PS. Ruby reads on across them (a CR in a comment is still the
    /// comment), so what such a line says is not what fastlane ran: the importer stops there.
    static func editorOnlyLineStarts(_ text: String) -> Set<Int> {
        var lines: Set<Int> = []
        var line = 1
        let scalars = Array(text.unicodeScalars)
        var index = 0
        while index < scalars.count {
            let scalar = scalars[index]
            index += 1
            guard isLineTerminator(scalar) else { continue }
            line += 1
            if scalar == "\r", index < scalars.count, scalars[index] == "\n" {
                index += 1  // CR LF: an ordinary line end
            } else if scalar != "\n" {
                lines.insert(line)
            }
        }
        return lines
    }

    static func isLineTerminator(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0A, 0x0D, 0x85, 0x2028, 0x2029: return true
        default: return false
        }
    }

    /// A Swift string literal whose value is `text`.
    static func literal(_ text: String) -> String {
        var result = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\\": result += "\\\\"
            case "\"": result += "\\\""
            case "\n": result += "\\n"
            case "\t": result += "\\t"
            case "\r": result += "\\r"
            case "\0": result += "\\0"
            default: append(scalar, to: &result)
            }
        }
        return result + "\""
    }

    /// The lines of a `//` comment quoting `text` (one per line of it, without the `//`).
    static func commentLines(_ text: String) -> [String] {
        normalisingLineEnds(text).split(separator: "\n", omittingEmptySubsequences: false).map { commentLine(String($0)) }
    }

    /// `text` as the rest of one comment line: a line end shows as `\n`, a tab as four spaces.
    static func commentLine(_ text: String) -> String {
        var result = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\t": result += "    "
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            default: append(scalar, to: &result)
            }
        }
        return result
    }

    /// Text for a person (the report on a terminal): line ends kept, every other control shown escaped.
    static func visible(_ text: String) -> String {
        normalisingLineEnds(text).split(separator: "\n", omittingEmptySubsequences: false)
            .map { line in
                var result = ""
                for scalar in line.unicodeScalars { if scalar == "\t" { result += "    " } else { append(scalar, to: &result) } }
                return result
            }
            .joined(separator: "\n")
    }

    /// A scalar as itself, or as `\u{...}` when it is a control, a line or paragraph separator, or
    /// a bidirectional control (which can make code read differently from what it is).
    private static func append(_ scalar: Unicode.Scalar, to result: inout String) {
        if needsEscape(scalar) {
            result += "\\u{\(String(scalar.value, radix: 16))}"
        } else {
            result.unicodeScalars.append(scalar)
        }
    }

    static func needsEscape(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x00 ... 0x1F, 0x7F ... 0x9F: return true
        case 0x061C, 0x200E, 0x200F, 0x2028, 0x2029, 0x202A ... 0x202E, 0x2066 ... 0x2069, 0xFEFF: return true
        default: return false
        }
    }
}
