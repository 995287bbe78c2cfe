/// Hides credentials embedded in URLs before text is shown or stored.
public enum URLRedaction {
    public static let mask = "********"

    /// `text` with the userinfo of every `scheme://user:password@host` URL masked. A user name
    /// alone is masked too: for token-based https remotes the "user name" is often the token.
    public static func redact(_ text: String) -> String {
        var result = ""
        var rest = Substring(text)
        while let schemeEnd = rest.firstRange(of: "://") {
            result += rest[..<schemeEnd.upperBound]
            rest = rest[schemeEnd.upperBound...]
            let authorityEnd = rest.firstIndex { $0 == "/" || $0 == " " || $0 == "'" || $0 == "\"" || $0 == "\n" }
                ?? rest.endIndex
            let authority = rest[..<authorityEnd]
            if let at = authority.lastIndex(of: "@") {
                result += mask
                result += authority[at...]
            } else {
                result += authority
            }
            rest = rest[authorityEnd...]
        }
        return result + rest
    }
}
