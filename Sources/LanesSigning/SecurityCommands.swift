/// The macOS `security` invocations lanes uses, as pure values.
///
/// Commands that carry a password run `security -i` and receive their command line on standard
/// input, which `security` parses itself: the password never reaches any process's argv. Words
/// on that line are double-quoted with `\` escaping `"` and `\`.
public enum SecurityCommands {
    public static let tool = "security"

    public static func listUserKeychains() -> ToolCommand {
        ToolCommand([tool, "list-keychains", "-d", "user"], summary: "list the user keychain search list")
    }

    public static func setUserSearchList(_ keychains: [String]) -> ToolCommand {
        ToolCommand([tool, "list-keychains", "-d", "user", "-s"] + keychains, summary: "set the user keychain search list")
    }

    public static func createKeychain(_ path: String, password: String) throws(SigningError) -> ToolCommand {
        try interactive(["create-keychain", "-p", password, path], summary: "create keychain \(path)")
    }

    /// Locks after 6 hours and on sleep, so a forgotten keychain does not stay open.
    public static func setKeychainSettings(_ path: String) -> ToolCommand {
        ToolCommand([tool, "set-keychain-settings", "-lut", "21600", path], summary: "set lock timeout of \(path)")
    }

    public static func unlockKeychain(_ path: String, password: String) throws(SigningError) -> ToolCommand {
        try interactive(["unlock-keychain", "-p", password, path], summary: "unlock \(path)")
    }

    /// Imports a PKCS#12 file whose one-time password goes through stdin; only codesign may use the key.
    public static func importPKCS12(_ file: String, into keychain: String, passphrase: String) throws(SigningError) -> ToolCommand {
        try interactive(["import", file, "-k", keychain, "-f", "pkcs12", "-P", passphrase, "-T", "/usr/bin/codesign"],
                        summary: "import \(file) into \(keychain) for codesign")
    }

    /// Lets Apple's tools use the key without a UI prompt (needed since macOS Sierra).
    public static func setKeyPartitionList(_ keychain: String, password: String) throws(SigningError) -> ToolCommand {
        try interactive(["set-key-partition-list", "-S", "apple-tool:,apple:,codesign:", "-s", "-k", password, keychain],
                        summary: "set the key partition list of \(keychain)")
    }

    /// `-v` lists the valid identities only (a certificate chain that reaches a trusted root, not expired
    /// or revoked); without it `security` lists every identity first, each invalid one with its reason.
    public static func findCodeSigningIdentities(_ keychain: String, validOnly: Bool = true) -> ToolCommand {
        ToolCommand([tool, "find-identity"] + (validOnly ? ["-v"] : []) + ["-p", "codesigning", keychain],
                    summary: "list \(validOnly ? "valid " : "")code-signing identities in \(keychain)")
    }

    public static func deleteKeychain(_ path: String) -> ToolCommand {
        ToolCommand([tool, "delete-keychain", path], summary: "delete keychain \(path)")
    }

    /// Parses `list-keychains` output: one quoted path per line.
    public static func parseKeychainList(_ output: String) -> [String] {
        output.split(whereSeparator: \.isNewline).compactMap { line in
            let trimmed = line.trimmingCharacters(in: " \t\"")
            return trimmed.isEmpty ? nil : trimmed
        }
    }

    /// Parses `find-identity -v` output lines such as `  1) 5F24...ACFB "iPhone Distribution: Example Corp (ABCDE12345)"`.
    public static func parseIdentities(_ output: String) -> [KeychainIdentity] {
        output.split(whereSeparator: \.isNewline).compactMap { line in
            let words = line.split(separator: " ", maxSplits: 2, omittingEmptySubsequences: true)
            guard words.count == 3, words[0].hasSuffix(")"), words[1].count == 40,
                  words[2].hasPrefix("\""), let close = words[2].lastIndex(of: "\"") , close > words[2].startIndex else { return nil }
            let name = words[2][words[2].index(after: words[2].startIndex)..<close]
            return KeychainIdentity(commonName: String(name), sha1: String(words[1]).uppercased())
        }
    }

    /// An identity of the "Matching identities" part of `find-identity` without `-v`, with the reason
    /// `security` gives when it is not valid, such as `CSSMERR_TP_NOT_TRUSTED`:
    ///
    ///     Policy: Code Signing
    ///       Matching identities
    ///       1) 5F24...ACFB "iPhone Distribution: Example Corp (ABCDE12345)" (CSSMERR_TP_NOT_TRUSTED)
    ///          1 identities found
    ///
    ///       Valid identities only
    ///          0 valid identities found
    public struct ListedIdentity: Sendable, Equatable {
        public let identity: KeychainIdentity
        public let problem: String?
    }

    public static func parseMatchingIdentities(_ output: String) -> [ListedIdentity] {
        let matching = output.components(separatedBy: "Valid identities only").first ?? output
        return matching.split(whereSeparator: \.isNewline).compactMap { line in
            guard let identity = parseIdentities(String(line)).first, let close = line.lastIndex(of: "\"") else { return nil }
            let rest = line[line.index(after: close)...].trimmingCharacters(in: " \t")
            let problem = rest.hasPrefix("(") && rest.hasSuffix(")") ? String(rest.dropFirst().dropLast()) : nil
            return ListedIdentity(identity: identity, problem: problem)
        }
    }

    private static func interactive(_ words: [String], summary: String) throws(SigningError) -> ToolCommand {
        var line = ""
        for word in words {
            guard !word.contains(where: { $0 == "\n" || $0 == "\r" || $0 == "\0" }) else {
                throw .keychain(name: "security -i", problem: "cannot \(summary): a value (perhaps the keychain password) contains a line break or NUL, which `security -i` cannot take")
            }
            var quoted = "\""
            for character in word {
                if character == "\"" || character == "\\" { quoted.append("\\") }
                quoted.append(character)
            }
            line += (line.isEmpty ? "" : " ") + quoted + "\""
        }
        return ToolCommand([tool, "-i"], standardInput: Array((line + "\n").utf8), summary: summary)
    }
}

extension Substring {
    func trimmingCharacters(in set: String) -> String {
        let characters = Set(set)
        var slice = self[...]
        while let first = slice.first, characters.contains(first) { slice = slice.dropFirst() }
        while let last = slice.last, characters.contains(last) { slice = slice.dropLast() }
        return String(slice)
    }
}
