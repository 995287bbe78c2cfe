import Synchronization

/// A temporary macOS keychain for one lane, driven through the `security` tool.
///
/// `create` remembers the user's keychain search list and puts the new keychain in front;
/// `delete` restores that list and deletes the keychain. The identity is imported from a
/// PKCS#12 re-encoded with 3DES/SHA-1 (the encoding `security import` accepts whatever tool made
/// the original) under a random one-time password, and only `codesign` may use the key.
public final class MacKeychain: Keychain {
    public let name: String
    public let location: String
    private let password: String
    private let runner: any ToolRunning
    private let scratchDirectory: String
    private let state = Mutex(Lifecycle())

    private struct Lifecycle {
        /// The search list before `create` changed it; nil when there is nothing to restore.
        var previousSearchList: [String]?
        var created = false
    }

    /// - Parameters:
    ///   - keychainsDirectory: usually `~/Library/Keychains`.
    ///   - scratchDirectory: a private directory (0700) for the short-lived re-encoded PKCS#12.
    public init(name: String, keychainsDirectory: String, password: String, runner: any ToolRunning,
                scratchDirectory: String) throws(SigningError) {
        try KeychainName.validate(name)
        self.name = name
        self.location = "\(keychainsDirectory)/\(name).keychain-db"
        self.password = password
        self.runner = runner
        self.scratchDirectory = scratchDirectory
    }

    public func create() async throws {
        // Never adopt (and later delete) a keychain lanes did not make.
        guard !LocalFile.exists(location) else {
            throw SigningError.keychain(name: name, problem: "\(location) already exists (left by an interrupted run?); delete it with `security delete-keychain \(location)` or choose another keychain name")
        }
        let listed = try await run(SecurityCommands.listUserKeychains())
        let previous = SecurityCommands.parseKeychainList(listed.output).filter { $0 != location }
        state.withLock { $0.created = true }
        try await run(SecurityCommands.createKeychain(location, password: password))
        try await run(SecurityCommands.setKeychainSettings(location))
        try await run(SecurityCommands.unlockKeychain(location, password: password))
        state.withLock { $0.previousSearchList = previous }
        try await run(SecurityCommands.setUserSearchList([location] + previous))
    }

    public func importIdentity(_ identity: SigningIdentity) async throws -> KeychainIdentity {
        let oneTimePassword = try RandomSecret.hex(bytes: 24)
        let bytes = try identity.tripleDESPKCS12(password: oneTimePassword)
        let sha1 = identity.certificate.sha1
        try LocalFile.makeDirectory(scratchDirectory, mode: 0o700)
        let file = "\(scratchDirectory)/\(sha1).p12"
        try LocalFile.writeAtomically(bytes, to: file, mode: 0o600)
        do {
            try await run(SecurityCommands.importPKCS12(file, into: location, passphrase: oneTimePassword), hiding: [oneTimePassword])
            try? LocalFile.removeFlatDirectory(scratchDirectory)
        } catch {
            try? LocalFile.removeFlatDirectory(scratchDirectory)
            throw error
        }
        try await run(SecurityCommands.setKeyPartitionList(location, password: password))
        // `security -i` does not report failures through its exit status: confirm by looking.
        return try await findIdentity(.sha1(sha1))
    }

    public func findIdentity(_ query: IdentityQuery) async throws -> KeychainIdentity {
        let result = try await run(SecurityCommands.findCodeSigningIdentities(location))
        guard let found = SecurityCommands.parseIdentities(result.output).first(where: query.matches) else {
            throw SigningError.identityNotFound(keychain: name, query: query.description)
        }
        return found
    }

    public func delete() async throws {
        let (restore, created) = state.withLock { state in
            defer { state = Lifecycle() }
            return (state.previousSearchList, state.created)
        }
        var failures: [String] = []
        if let restore {
            do { try await run(SecurityCommands.setUserSearchList(restore)) } catch { failures.append("\(error)") }
        }
        if created {
            let result = try await runner.run(SecurityCommands.deleteKeychain(location))
            // 50 is errSecNoSuchKeychain's exit status: already gone counts as deleted.
            if result.exitStatus != 0 && result.exitStatus != 50 {
                failures.append("delete-keychain exited with \(result.exitStatus): \(result.output)")
            }
        }
        if !failures.isEmpty { throw SigningError.keychain(name: name, problem: failures.joined(separator: "; ")) }
    }

    /// Runs `command`; a failure quotes the tool's output with the keychain password (and
    /// `hiding`) masked, in case the tool echoes its input.
    @discardableResult
    private func run(_ command: ToolCommand, hiding secrets: [String] = []) async throws -> ToolResult {
        let result = try await runner.run(command)
        guard result.exitStatus == 0 else {
            var output = result.output
            for secret in [password] + secrets where !secret.isEmpty {
                output = output.replacing(secret, with: "********")
            }
            throw SigningError.keychain(name: name, problem: "could not \(command.summary): `security` exited with \(result.exitStatus): \(output)")
        }
        return result
    }
}
