import Synchronization
internal import LanesPlatform

/// Who owns a keychain: a lock file (`NAME.keychain.lock` beside a file keychain; for a macOS keychain
/// `NAME.keychain-db.lock` in the state folder's `mac-keychains`), held with `flock` by the run that
/// created the keychain. The kernel drops the lock when that process ends, however it ends, so
/// - a second lane using the same name while the first runs is refused (it would delete the
///   first one's keychain when it finished);
/// - a keychain whose lock nobody holds was left by a run that crashed or was killed: it is never
///   adopted, and the next run removes it (`FileKeychain.removeLeftovers(in:)`, `MacKeychain.removeLeftovers`).
/// The file says `in-use` or `kept`; a keychain kept on purpose (`keep_keychain`) is not a leftover.
final class KeychainLock: Sendable {
    private let descriptor = Mutex<Int32>(-1)
    let path: String

    static let inUse = "in-use"
    static let kept = "kept"

    init(path: String) { self.path = path }

    /// Takes the lock, or returns false when another live process holds it.
    func acquire() throws(SigningError) -> Bool {
        let opened = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard opened >= 0 else { throw .fileUnwritable(path: path, reason: LocalFile.errnoText()) }
        guard flock(opened, LOCK_EX | LOCK_NB) == 0 else {
            close(opened)
            return false
        }
        descriptor.withLock { $0 = opened }
        mark(Self.inUse)
        return true
    }

    func mark(_ state: String) {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            _ = ftruncate(descriptor, 0)
            let bytes = Array(state.utf8)
            _ = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        }
    }

    /// Whether this run holds the lock (created the keychain).
    var isHeld: Bool { descriptor.withLock { $0 >= 0 } }

    /// Removes the lock file and lets go of the lock.
    func release() {
        descriptor.withLock { descriptor in
            guard descriptor >= 0 else { return }
            unlink(path)
            close(descriptor)
            descriptor = -1
        }
    }

    /// The state written in a lock file whose owner is gone, or nil when a live process holds it.
    static func abandonedState(at path: String) -> String? {
        let opened = open(path, O_RDONLY | O_CLOEXEC | O_NOFOLLOW)
        guard opened >= 0 else { return nil }
        defer { close(opened) }
        guard flock(opened, LOCK_SH | LOCK_NB) == 0 else { return nil }
        var buffer = [UInt8](repeating: 0, count: 16)
        let count = buffer.withUnsafeMutableBytes { read(opened, $0.baseAddress, $0.count) }
        return String(decoding: buffer.prefix(max(count, 0)), as: UTF8.self)
    }
}
