#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform

/// A keychain as a directory (mode 0700): each private key as encrypted PKCS#8 PEM (protected by
/// the keychain password), each certificate as PEM, and `index.json` to find an identity by
/// common name or SHA-1. The Linux stand-in for a macOS keychain.
///
/// A keychain belongs to the run that created it (see `KeychainLock`): a name in use by a running
/// lane is refused, and a folder left behind by a crashed run is removed, never adopted.
public struct FileKeychain: Keychain {
    public let name: String
    public let location: String
    private let password: String
    private let lock: KeychainLock

    /// `directory` is where the keychain directory is created, e.g. `<state>/keychains`.
    public init(name: String, in directory: String, password: String) throws(SigningError) {
        try KeychainName.validate(name)
        guard !password.isEmpty else {
            throw .keychain(name: name, problem: "a file keychain needs a non-empty password to encrypt its private keys")
        }
        self.name = name
        self.location = directory + "/" + name + ".keychain"
        self.password = password
        self.lock = KeychainLock(path: location + ".lock")
    }

    /// Removes the keychains in `directory` left by runs that ended without deleting them (a crash,
    /// kill -9); keychains in use by a running lane, or kept on purpose, stay. Returns their paths.
    @discardableResult
    public static func removeLeftovers(in directory: String) -> [String] {
        var removed: [String] = []
        guard let folder = opendir(directory) else { return [] }
        var names: [String] = []
        while let entry = readdir(folder) {
            names.append(withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) })
        }
        closedir(folder)
        for name in names where name.hasSuffix(".keychain.lock") {
            let lockPath = directory + "/" + name
            guard let state = KeychainLock.abandonedState(at: lockPath), state != KeychainLock.kept else { continue }
            let keychain = String(lockPath.dropLast(".lock".count))
            if (try? LocalFile.removeFlatDirectory(keychain)) != nil {
                unlink(lockPath)
                removed.append(keychain)
            }
        }
        return removed
    }

    var indexPath: String { location + "/index.json" }

    public func create() async throws {
        try LocalFile.makeDirectory(FilePath.directory(of: location), mode: 0o700)
        guard try lock.acquire() else {
            throw SigningError.keychain(name: name, problem: "is in use by another lane running now; give each lane that runs at the same time its own keychain name")
        }
        // Whatever sits here now was left by a run that is gone: start empty rather than adopt it.
        try LocalFile.removeFlatDirectory(location)
        guard mkdir(location, 0o700) == 0 else {
            lock.release()
            throw SigningError.fileUnwritable(path: location, reason: LocalFile.errnoText())
        }
        try writeIndex([])
    }

    /// Keeps the keychain after the lane (`keep_keychain`): the next run does not treat it as a leftover.
    public func keepAfterLane() {
        lock.mark(KeychainLock.kept)
    }

    public func importIdentity(_ identity: SigningIdentity) async throws -> KeychainIdentity {
        let certificate = identity.certificate
        let key = try identity.encryptedPrivateKeyPEM(password: password)
        try LocalFile.writeAtomically(key, to: keyPath(certificate.sha1), mode: 0o600)
        try LocalFile.writeAtomically(Array(certificate.pem.utf8), to: certificatePath(certificate.sha1), mode: 0o600)
        let entry = KeychainIdentity(commonName: certificate.displayName, sha1: certificate.sha1)
        var index = try readIndex().filter { $0.sha1 != entry.sha1 }
        index.append(entry)
        try writeIndex(index)
        return entry
    }

    public func findIdentity(_ query: IdentityQuery) async throws -> KeychainIdentity {
        guard let found = try readIndex().first(where: query.matches) else {
            throw SigningError.identityNotFound(keychain: name, query: query.description)
        }
        return found
    }

    /// The stored certificate of an identity.
    public func certificate(of identity: KeychainIdentity) throws -> Certificate {
        try Certificate(pem: LocalFile.contents(of: certificatePath(identity.sha1)), source: certificatePath(identity.sha1))
    }

    /// Decrypts the stored private key with the keychain password and checks it still belongs to
    /// the stored certificate: what a signing tool reading this keychain will do.
    public func verifyPrivateKey(of identity: KeychainIdentity) throws {
        let certificate = try certificate(of: identity)
        let pem = try LocalFile.contents(of: keyPath(identity.sha1))
        try PrivateKeyPEM.verify(pem, password: password, certificate: certificate, context: OpenSSLContext.forProcess(),
                                 source: keyPath(identity.sha1))
    }

    /// Deletes the keychain if this run created it; one that another run owns is left alone (the
    /// cleanup is registered before `create`, which may have been refused).
    public func delete() async throws {
        guard lock.isHeld else { return }
        try LocalFile.removeFlatDirectory(location)
        lock.release()
    }

    private func keyPath(_ sha1: String) -> String { "\(location)/\(sha1).key.pem" }
    private func certificatePath(_ sha1: String) -> String { "\(location)/\(sha1).crt.pem" }

    private func readIndex() throws -> [KeychainIdentity] {
        let bytes = try LocalFile.contents(of: indexPath)
        do {
            return try JSONDecoder().decode([KeychainIdentity].self, from: Data(bytes))
        } catch {
            throw SigningError.keychain(name: name, problem: "\(indexPath) is damaged (\(error)); delete the keychain directory and import again")
        }
    }

    private func writeIndex(_ entries: [KeychainIdentity]) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        try LocalFile.writeAtomically(Array(try encoder.encode(entries)), to: indexPath, mode: 0o600)
    }
}
