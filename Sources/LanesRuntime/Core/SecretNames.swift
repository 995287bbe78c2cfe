/// Which environment variables lanes treats as secret without being told: their values are masked
/// from the start of every run, declared or not. Jenkins and GitHub Actions mask only what was
/// registered with them; an undeclared `AWS_SECRET_ACCESS_KEY` printed by a Lanefile would leak.
///
/// The rule (documented in docs/secrets.md): a name is secret when, in upper case, it contains
/// PASSWORD, PASSWD, SECRET, TOKEN, CREDENTIAL, PRIVATE, PASSPHRASE, APIKEY or API_KEY, ends in
/// `_KEY`, `_PAT` or `_PWD`,
/// or is one of the well-known CI names below. `LANES_NOT_SECRET=NAME1,NAME2` exempts names.
public struct SecretNames: Sendable {
    /// The variable listing names that look secret but are not (`LANES_NOT_SECRET=PRIVATE_PODS_URL`).
    public static let exemptionVariable = "LANES_NOT_SECRET"

    static let fragments = ["PASSWORD", "PASSWD", "SECRET", "TOKEN", "CREDENTIAL", "PRIVATE", "PASSPHRASE",
                            "APIKEY", "API_KEY"]
    static let suffixes = ["_KEY", "_PAT", "_PWD"]
    /// Well-known names the fragments do not cover.
    static let wellKnown: Set<String> = [
        "AWS_ACCESS_KEY_ID", "AZURE_CLIENT_SECRET", "GOOGLE_APPLICATION_CREDENTIALS", "NPM_TOKEN",
        "MATCH_PASSWORD", "FASTLANE_PASSWORD", "FASTLANE_SESSION",
        "APP_STORE_CONNECT_API_KEY_KEY", "SENTRY_DSN", "SLACK_URL", "SLACK_WEBHOOK_URL", "DANGER_GITHUB_API_TOKEN",
        "CODECOV_TOKEN", "HOCKEY_API_TOKEN", "FIREBASE_TOKEN", "KEYCHAIN_PASSWORD", "DATABASE_URL",
    ]
    /// Names that match the rule but hold no secret on any machine (a socket path, a plain setting).
    static let knownHarmless: Set<String> = [exemptionVariable, "SSH_AUTH_SOCK", "GPG_AGENT_INFO", "XAUTHORITY",
                                             // fastlane's App Store Connect key variables besides the key itself: ids, a path, flags
                                             // (masking their "true" would mask every "true" in the output).
                                             "APP_STORE_CONNECT_API_KEY_KEY_ID", "APP_STORE_CONNECT_API_KEY_ISSUER_ID",
                                             "APP_STORE_CONNECT_API_KEY_KEY_FILEPATH", "APP_STORE_CONNECT_API_KEY_IS_KEY_CONTENT_BASE64",
                                             "APP_STORE_CONNECT_API_KEY_IN_HOUSE", "APP_STORE_CONNECT_API_KEY_DURATION"]

    let exempt: Set<String>

    /// Reads the exemptions from `LANES_NOT_SECRET` in `variables`.
    public init(variables: [String: String]) {
        let list = variables[Self.exemptionVariable] ?? ""
        exempt = Set(list.split(whereSeparator: { $0 == "," || $0 == " " }).map(String.init))
    }

    public func isSecret(_ name: String) -> Bool {
        if exempt.contains(name) || Self.knownHarmless.contains(name) { return false }
        guard name.utf8.allSatisfy({ $0 < 0x80 }) else {
            let upper = name.uppercased()
            if Self.wellKnown.contains(upper) { return true }
            return Self.fragments.contains { upper.contains($0) } || Self.suffixes.contains { upper.hasSuffix($0) }
        }
        // Every run checks each variable of its environment: on ASCII names (all of them in
        // practice) the same rule on bytes, without Unicode case mapping or string searching.
        let upper = name.utf8.map { $0 >= UInt8(ascii: "a") && $0 <= UInt8(ascii: "z") ? $0 - 32 : $0 }
        if Self.wellKnown.contains(String(decoding: upper, as: UTF8.self)) { return true }
        return Self.fragmentBytes.contains { fragment in Self.contains(upper, fragment) }
            || Self.suffixBytes.contains { upper.count >= $0.count && upper.suffix($0.count).elementsEqual($0) }
    }

    private static let fragmentBytes = fragments.map { Array($0.utf8) }
    private static let suffixBytes = suffixes.map { Array($0.utf8) }

    private static func contains(_ text: [UInt8], _ fragment: [UInt8]) -> Bool {
        guard text.count >= fragment.count, let first = fragment.first else { return false }
        var start = 0
        while start + fragment.count <= text.count {
            if text[start] == first, text[start..<(start + fragment.count)].elementsEqual(fragment) { return true }
            start += 1
        }
        return false
    }

    /// The names in `variables` whose values are masked automatically, sorted.
    public func secretNames(in variables: [String: String]) -> [String] {
        variables.keys.filter(isSecret).sorted()
    }
}

extension Environment {
    /// Registers the value of every secret-named variable (see `SecretNames`) for redaction.
    public func registerSecretNamedVariables() {
        let names = SecretNames(variables: variables)
        for name in names.secretNames(in: variables) {
            if let value = variables[name] { redactor.register(value, name: name) }
        }
    }
}
