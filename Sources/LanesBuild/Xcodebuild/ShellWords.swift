/// Splits an argument string as a POSIX shell would split words, with single quotes, double quotes
/// and backslashes, but without expansions: fastlane's `xcargs: "-skipMacroValidation OTHER=1"`
/// becomes argv entries without a shell ever running.
public enum ShellWords {
    /// `option` names the step option in the error.
    public static func split(_ text: String, option: String = "xcargs") throws(BuildError) -> [String] {
        var words: [String] = []
        var current = ""
        var inWord = false
        var quote: Character?
        var escaped = false
        for character in text {
            if escaped {
                current.append(character)
                escaped = false
                continue
            }
            switch (quote, character) {
            case ("'", "'"), ("\"", "\""): quote = nil
            case ("'", _): current.append(character)
            case ("\"", "\\"), (nil, "\\"): escaped = true; inWord = true
            case ("\"", _): current.append(character)
            case (nil, "'"), (nil, "\""): quote = character; inWord = true
            case (nil, _) where character.isWhitespace:
                if inWord { words.append(current) }
                current = ""
                inWord = false
            default:
                current.append(character)
                inWord = true
            }
        }
        guard quote == nil, !escaped else {
            throw .option(name: option, problem: "unbalanced quote or trailing backslash in '\(text)'")
        }
        if inWord { words.append(current) }
        return words
    }
}
