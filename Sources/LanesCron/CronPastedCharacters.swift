/// Characters that web pages and word processors put into cron specs in place of ASCII ones: an en
/// dash in `0–4`, a non-breaking space between fields. Jenkins rejects them with a bare "token
/// recognition error"; lanes names the character, its column and the ASCII to type instead.
/// Kept apart from `CronSchedule(parsing:)` so that parser keeps Jenkins' exact messages.
public enum CronPastedCharacters {
    /// Look-alikes and the ASCII character each stands for.
    static let replacements: [Unicode.Scalar: (name: String, ascii: Character)] = [
        "\u{2010}": ("HYPHEN", "-"), "\u{2011}": ("NON-BREAKING HYPHEN", "-"),
        "\u{2012}": ("FIGURE DASH", "-"), "\u{2013}": ("EN DASH", "-"), "\u{2014}": ("EM DASH", "-"),
        "\u{2212}": ("MINUS SIGN", "-"), "\u{FE63}": ("SMALL HYPHEN-MINUS", "-"), "\u{FF0D}": ("FULLWIDTH HYPHEN-MINUS", "-"),
        "\u{00A0}": ("NO-BREAK SPACE", " "), "\u{2007}": ("FIGURE SPACE", " "), "\u{2009}": ("THIN SPACE", " "),
        "\u{202F}": ("NARROW NO-BREAK SPACE", " "), "\u{2002}": ("EN SPACE", " "), "\u{2003}": ("EM SPACE", " "),
        "\u{3000}": ("IDEOGRAPHIC SPACE", " "), "\u{200B}": ("ZERO WIDTH SPACE", " "), "\u{FEFF}": ("ZERO WIDTH NO-BREAK SPACE", " "),
        "\u{2217}": ("ASTERISK OPERATOR", "*"), "\u{FF0A}": ("FULLWIDTH ASTERISK", "*"), "\u{2044}": ("FRACTION SLASH", "/"),
        "\u{FF0F}": ("FULLWIDTH SOLIDUS", "/"), "\u{201A}": ("SINGLE LOW-9 QUOTATION MARK", ","), "\u{FF0C}": ("FULLWIDTH COMMA", ","),
    ]

    /// Throws for the first look-alike character in `text`, e.g.
    /// `line 1, column 9: '–' (U+2013 EN DASH) is not ASCII; type '-' instead: H 0 * * 0-4`.
    /// Line and column are 1-based and count characters as written.
    public static func check(_ text: String) throws(CronSyntaxError) {
        for (lineIndex, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
            for (columnIndex, scalar) in line.unicodeScalars.enumerated() {
                guard let replacement = replacements[scalar] else { continue }
                let fixed = String(String.UnicodeScalarView(line.unicodeScalars.map { scalar in
                    replacements[scalar].map { $0.ascii.unicodeScalars.first! } ?? scalar
                })).trimmingTrailingCarriageReturn
                let code = String(scalar.value, radix: 16, uppercase: true)
                let padded = String(repeating: "0", count: max(0, 4 - code.count)) + code
                throw CronSyntaxError(
                    message: "line \(lineIndex + 1), column \(columnIndex + 1): '\(scalar)' (U+\(padded) \(replacement.name)) is not ASCII; type '\(replacement.ascii)' instead: \(fixed)",
                    lineNumber: lineIndex + 1, column: columnIndex)
            }
        }
    }
}

private extension String {
    var trimmingTrailingCarriageReturn: String { hasSuffix("\r") ? String(dropLast()) : self }
}
