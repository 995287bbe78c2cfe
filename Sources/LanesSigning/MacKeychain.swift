internal import LanesPlatform

/// A temporary macOS keychain for one lane, driven through the `security` tool.
///
/// A keychain belongs to the run that created it, as a file keychain does: `NAME.keychain-db.lock`
/// in `ownershipDirectory` (the project's state folder), held with `flock` by that run (`KeychainLock`).
/// So a second lane using the name while the first runs is refused; a keychain whose lock nobody holds
/// was left by a run that crashed or was killed, and the next run removes it (`removeLeftovers`) or
/// replaces it; and a keychain lanes did not make (no lock file) is never adopted or deleted.
///
/// The user's keychain search list is shared by every lane and program of the user: `create` adds
/// this keychain in front and `delete` removes this one entry, each reading the list as it is at that
/// moment (never restoring a snapshot, which would drop a keychain another lane added meanwhile), under
/// a lock file shared by all of lanes' runs (`searchListLock`).
///
/// The identity is imported from a PKCS#12 re-encoded with 3DES/SHA-1 (the encoding `security import`
/// accepts whatever tool made the original) under a random one-time password, and only `codesign` may
/// use the key.
public final class MacKeychain: Keychain {
    public let name: String
    public let location: String
    private let password: String
    private let runner: any ToolRunning
    private let scratchDirectory: String
    private let searchList: SearchList
    private let lock: KeychainLock

    /// - Parameters:
    ///   - keychainsDirectory: usually `~/Library/Keychains`.
    ///   - scratchDirectory: a private directory (0700) for the short-lived re-encoded PKCS#12.
    ///   - ownershipDirectory: where lanes records the keychains its runs made (the state folder's `mac-keychains`).
    ///   - searchListLock: a lock file every lanes run of this user shares (in the user's cache folder).
    public init(name: String, keychainsDirectory: String, password: String, runner: any ToolRunning,
                scratchDirectory: String, ownershipDirectory: String, searchListLock: String) throws(SigningError) {
        try KeychainName.validate(name)
        self.name = name
        self.location = Self.location(of: name, in: keychainsDirectory)
        self.password = password
        self.runner = runner
        self.scratchDirectory = scratchDirectory
        self.searchList = SearchList(runner: runner, lockPath: searchListLock)
        self.lock = KeychainLock(path: Self.ownershipFile(of: name, in: ownershipDirectory))
    }

    static func location(of name: String, in keychainsDirectory: String) -> String { "\(keychainsDirectory)/\(name).keychain-db" }
    static func ownershipFile(of name: String, in directory: String) -> String { "\(directory)/\(name)\(ownershipSuffix)" }
    static let ownershipSuffix = ".keychain-db.lock"

    public func create() async throws {
        try LocalFile.makeDirectory(FilePath.directory(of: lock.path), mode: 0o700)
        // Whether a run of lanes made the keychain that may be there: its lock file says so.
        let madeByLanes = KeychainLock.abandonedState(at: lock.path) != nil
        guard try lock.acquire() else {
            throw SigningError.keychain(name: name, problem: "is in use by another lane running now; give each lane that runs at the same time its own keychain name")
        }
        if LocalFile.exists(location) {
            guard madeByLanes else {
                // Never adopt (and later delete) a keychain lanes did not make.
                lock.release()
                throw SigningError.keychain(name: name, problem: "\(location) already exists and was not made by lanes; choose another keychain name, or delete it with `security delete-keychain \(location)`")
            }
            // Left by a run that crashed or was killed (or kept on purpose by an earlier lane): start anew.
            try await Self.remove(location, runner: runner, searchList: searchList)
        }
        // A failure below leaves what was made to `delete`, which the step's cleanup runs while this run
        // still holds the lock.
        try await run(SecurityCommands.createKeychain(location, password: password))
        try await run(SecurityCommands.setKeychainSettings(location))
        try await run(SecurityCommands.unlockKeychain(location, password: password))
        try await searchList.add(location)
    }

    public func keepAfterLane() {
        lock.mark(KeychainLock.kept)
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

    /// The valid identity matching `query`. `find-identity -v` lists only identities whose chain reaches
    /// a trusted root, so when none matches, the full listing tells an identity that is there but not
    /// trusted (a Mac without Apple's WWDR intermediate, or a test certificate's own root) from one
    /// that is not there at all.
    public func findIdentity(_ query: IdentityQuery) async throws -> KeychainIdentity {
        let valid = try await run(SecurityCommands.findCodeSigningIdentities(location))
        if let found = SecurityCommands.parseIdentities(valid.output).first(where: query.matches) { return found }
        let all = try await run(SecurityCommands.findCodeSigningIdentities(location, validOnly: false))
        if let listed = SecurityCommands.parseMatchingIdentities(all.output).first(where: { query.matches($0.identity) }) {
            throw SigningError.identityNotTrusted(keychain: name, identity: "'\(listed.identity.commonName)' (SHA-1 \(listed.identity.sha1))",
                                                  reason: listed.problem ?? "not valid for code signing")
        }
        throw SigningError.identityNotFound(keychain: name, query: query.description)
    }

    /// Deletes the keychain if this run created it, and takes its entry (only its own) off the search
    /// list. One that another run owns, or that `create` refused, is left alone.
    public func delete() async throws {
        guard lock.isHeld else { return }
        try await Self.remove(location, runner: runner, searchList: searchList)
        lock.release()
    }

    /// Removes the keychains whose lock files in `ownershipDirectory` nobody holds (runs that crashed or
    /// were killed; keychains kept on purpose stay), from the search list and from disk. Returns their paths.
    public static func removeLeftovers(ownershipDirectory: String, keychainsDirectory: String, runner: any ToolRunning,
                                       searchListLock: String) async -> [String] {
        let searchList = SearchList(runner: runner, lockPath: searchListLock)
        var removed: [String] = []
        for entry in FilePath.entries(of: ownershipDirectory) where entry.hasSuffix(ownershipSuffix) {
            let lockPath = ownershipDirectory + "/" + entry
            guard let state = KeychainLock.abandonedState(at: lockPath), state != KeychainLock.kept else { continue }
            let keychain = location(of: String(entry.dropLast(ownershipSuffix.count)), in: keychainsDirectory)
            guard (try? await remove(keychain, runner: runner, searchList: searchList)) != nil else { continue }
            unlink(lockPath)
            removed.append(keychain)
        }
        return removed
    }

    /// Takes `keychain` off the search list and deletes it; one already gone counts as deleted.
    private static func remove(_ keychain: String, runner: any ToolRunning, searchList: SearchList) async throws {
        var failures: [String] = []
        do { try await searchList.remove(keychain) } catch { failures.append("\(error)") }
        let result = try await runner.run(SecurityCommands.deleteKeychain(keychain))
        // 50 is errSecNoSuchKeychain's exit status.
        if result.exitStatus != 0 && result.exitStatus != 50 {
            failures.append("delete-keychain exited with \(result.exitStatus): \(result.output)")
        }
        if !failures.isEmpty { throw SigningError.keychain(name: FilePath.name(of: keychain), problem: failures.joined(separator: "; ")) }
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

/// The user's keychain search list, edited one entry at a time: each change reads the list as it is
/// and writes it back with only that entry added or removed, while holding a lock file that every
/// lanes run of the user shares, so two lanes never write over each other's entries.
struct SearchList: Sendable {
    let runner: any ToolRunning
    let lockPath: String

    /// Puts `keychain` first (and only once).
    func add(_ keychain: String) async throws {
        try await edit { [keychain] + $0.filter { $0 != keychain } }
    }

    /// Takes `keychain` off the list; the other entries stay as they are, in their order.
    func remove(_ keychain: String) async throws {
        try await edit { $0.filter { $0 != keychain } }
    }

    private func edit(_ change: ([String]) -> [String]) async throws {
        let held = try await SearchListLock.acquire(lockPath)
        defer { held.release() }
        let listed = try await runner.run(SecurityCommands.listUserKeychains())
        guard listed.exitStatus == 0 else {
            throw SigningError.keychain(name: "search list", problem: "`security list-keychains` exited with \(listed.exitStatus): \(listed.output)")
        }
        let current = SecurityCommands.parseKeychainList(listed.output)
        let changed = change(current)
        guard changed != current else { return }
        let result = try await runner.run(SecurityCommands.setUserSearchList(changed))
        guard result.exitStatus == 0 else {
            throw SigningError.keychain(name: "search list", problem: "could not set the user keychain search list: `security` exited with \(result.exitStatus): \(result.output)")
        }
    }
}

/// An exclusive `flock` on the search list's lock file, waited for without holding a thread.
final class SearchListLock: Sendable {
    private let descriptor: Int32

    private init(descriptor: Int32) { self.descriptor = descriptor }

    /// Waits (at most `timeout` seconds) until no other lanes run edits the search list.
    static func acquire(_ path: String, timeout: Double = 30) async throws -> SearchListLock {
        try LocalFile.makeDirectory(FilePath.directory(of: path), mode: 0o700)
        let opened = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard opened >= 0 else { throw SigningError.fileUnwritable(path: path, reason: LocalFile.errnoText()) }
        let clock = ContinuousClock()
        let deadline = clock.now + .seconds(timeout)
        while flock(opened, LOCK_EX | LOCK_NB) != 0 {
            guard clock.now < deadline else {
                close(opened)
                throw SigningError.keychain(name: "search list", problem: "another lanes run has held \(path) for \(Int(timeout)) s")
            }
            try await Task.sleep(for: .milliseconds(20))
        }
        return SearchListLock(descriptor: opened)
    }

    func release() { close(descriptor) }
}
