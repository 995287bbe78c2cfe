import LanesRuntime

/// Credentials written into a Fastfile: the importer never copies one into a file it writes or into
/// a command line. A literal is a credential when its name says so (`password:`, `api_token:`,
/// `ENV["MATCH_PASSWORD"] =`) or its value does (a token's known prefix, a webhook URL, a URL with
/// a password, a private key, a long opaque string).
enum Credentials {
    private static let secretNames = SecretNames(variables: [:])

    /// Whether a name (option, hash key, variable) says its value is a credential; a path, an id or
    /// a file name of one is not (`api_key_path`, `key_id`).
    static func isCredentialName(_ name: String) -> Bool {
        let upper = name.uppercased().replacing("-", with: "_")
        for suffix in ["_PATH", "_FILE", "_FILEPATH", "_FILENAME", "_DIR", "_ID", "_NAME", "_TYPE", "_DURATION", "_BASE64"]
            where upper.hasSuffix(suffix) { return false }
        if ["PASSWORD", "TOKEN", "SECRET", "API_KEY", "APIKEY", "WEBHOOK", "WEBHOOK_URL", "SLACK_URL", "KEY_CONTENT", "AUTHORIZATION",
            "BASIC_AUTHORIZATION", "PASSPHRASE"].contains(where: { upper == $0 || upper.hasSuffix("_" + $0) }) {
            return true
        }
        return secretNames.isSecret(upper)
    }

    /// Whether a literal's value looks like a credential whatever it is called.
    static func looksLikeCredential(_ value: String) -> Bool {
        let text = Substring(value).trimmingSpaces
        guard text.count >= 8 else { return false }
        let lower = text.lowercased()
        for prefix in ["ghp_", "gho_", "ghs_", "ghu_", "ghr_", "github_pat_", "glpat-", "xoxb-", "xoxp-", "xoxa-", "xoxs-", "xapp-",
                       "sk_live_", "rk_live_", "-----begin", "bearer ", "basic ", "aiza", "sl.", "npm_", "pypi-", "dapi"] where lower.hasPrefix(prefix) {
            if prefix == "aiza" || prefix == "sl." || prefix == "dapi" { if text.count >= 30 { return true } else { continue } }
            return true
        }
        if text.hasPrefix("AKIA") || text.hasPrefix("ASIA"), text.count == 20, text.allSatisfy({ $0.isUppercase || $0.isNumber }) { return true }
        for marker in ["hooks.slack.com/", "discord.com/api/webhooks/", "discordapp.com/api/webhooks/", "webhook.office.com/",
                       "outlook.office.com/webhook", "chat.googleapis.com/v1/spaces/", "api.telegram.org/bot", "/webhooks/", "hooks.zapier.com/"]
            where lower.contains(marker) { return true }
        if hasURLPassword(text) { return true }
        if lower.contains("token=") || lower.contains("access_token=") || lower.contains("api_key=") || lower.contains("apikey=") { return true }
        // A JSON Web Token: three base64url parts, the first two `{"`-encoded.
        if text.hasPrefix("eyJ"), text.split(separator: ".").count == 3 { return true }
        return isOpaqueToken(text)
    }

    /// `https://user:password@host`: a URL whose user info carries a password.
    private static func hasURLPassword(_ text: String) -> Bool {
        guard let scheme = text.range(of: "://") else { return false }
        let rest = text[scheme.upperBound...]
        let authority = rest.prefix { $0 != "/" && $0 != "?" && $0 != "#" }
        guard let at = authority.lastIndex(of: "@") else { return false }
        return authority[..<at].contains(":")
    }

    /// 32 or more characters of one token alphabet with upper case, lower case and digits mixed:
    /// what API keys look like, and what a version, a path, a bundle id or a git commit does not.
    private static func isOpaqueToken(_ text: String) -> Bool {
        guard text.count >= 32 else { return false }
        var upper = false, lower = false, digit = false
        for scalar in text.unicodeScalars {
            switch scalar {
            case "A" ... "Z": upper = true
            case "a" ... "z": lower = true
            case "0" ... "9": digit = true
            case "-", "_", "+", "/", "=": continue
            default: return false
            }
        }
        return upper && lower && digit
    }

    /// A secret's name derived from where its literal was: `slack`'s `slack_url` gives `SLACK_URL`,
    /// `upload_to_app_center`'s `api_token` gives `UPLOAD_TO_APP_CENTER_API_TOKEN`.
    static func derivedName(action: String?, key: String) -> String {
        let option = environmentName(key)
        guard let action, !action.isEmpty else { return option }
        let prefix = environmentName(action)
        return option.hasPrefix(prefix + "_") || option == prefix ? option : prefix + "_" + option
    }

    /// A secret's name for a credential known by its value alone (`"https://hooks.slack.com/..."`
    /// assigned to a local, given to a lane): what the value is, or where it was.
    static func nameForValue(_ value: String, place: String) -> String {
        let lower = value.lowercased()
        if lower.contains("hooks.slack.com/") { return "SLACK_URL" }
        if lower.contains("discord.com/api/webhooks/") || lower.contains("discordapp.com/api/webhooks/") { return "DISCORD_WEBHOOK_URL" }
        if lower.contains("webhook.office.com/") || lower.contains("outlook.office.com/webhook") { return "TEAMS_WEBHOOK_URL" }
        if lower.hasPrefix("ghp_") || lower.hasPrefix("github_pat_") || lower.hasPrefix("gho_") || lower.hasPrefix("ghs_") { return "GITHUB_TOKEN" }
        if lower.hasPrefix("glpat-") { return "GITLAB_TOKEN" }
        if lower.hasPrefix("xox") { return "SLACK_API_TOKEN" }
        return environmentName(place) + "_SECRET"
    }

    /// `api-token` as `API_TOKEN`: upper case letters, digits and underscores.
    static func environmentName(_ text: String) -> String {
        var name = ""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "a" ... "z": name.unicodeScalars.append(Unicode.Scalar(scalar.value - 32)!)
            case "A" ... "Z", "0" ... "9": name.unicodeScalars.append(scalar)
            default: if !name.isEmpty && !name.hasSuffix("_") { name += "_" }
            }
        }
        while name.hasSuffix("_") { name.removeLast() }
        if name.isEmpty { return "IMPORTED_SECRET" }
        if name.first!.isNumber { name = "SECRET_" + name }
        return name
    }

    /// Text quoting Fastfile source (a TODO block, the report) with every credential literal in it
    /// replaced by `<redacted: NAME>`: string literals whose value looks like one, and those after a
    /// key or variable name that says so.
    static func redactingLiterals(in source: String) -> String {
        guard source.contains("\"") || source.contains("'") else { return source }
        var result = ""
        var index = source.startIndex
        var recentWord = ""
        while index < source.endIndex {
            let character = source[index]
            if character == "\"" || character == "'" {
                var end = source.index(after: index)
                var escaped = false
                while end < source.endIndex {
                    let next = source[end]
                    if escaped { escaped = false } else if next == "\\" { escaped = true } else if next == character { break }
                    end = source.index(after: end)
                }
                let content = String(source[source.index(after: index) ..< end])
                let closing = end < source.endIndex ? source.index(after: end) : end
                if !content.contains("#{") && (looksLikeCredential(content) || (isCredentialName(recentWord) && !content.isEmpty)) {
                    result += "<redacted: \(recentWord.isEmpty ? "a credential" : environmentName(recentWord))>"
                } else {
                    result += source[index ..< closing]
                }
                index = closing
                // A quoted key names what follows it: `"password" => "..."`, `ENV['MATCH_PASSWORD'] = '...'`.
                recentWord = content.allSatisfy { $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" } ? content : ""
                continue
            }
            if character.isLetter || character.isNumber || character == "_" {
                if let last = result.last, last.isLetter || last.isNumber || last == "_" { recentWord.append(character) } else { recentWord = String(character) }
            } else if !" :=>[]'\"(,".contains(character) {
                recentWord = ""
            }
            result.append(character)
            index = source.index(after: index)
        }
        return result
    }
}
