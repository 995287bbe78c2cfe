#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Proof that a process tag's owner is gone. A lane holds an exclusive `flock` on
/// `DIRECTORY/TAG.lease` while it runs; the kernel drops the lock when the process dies, kill -9
/// included. A lease nobody holds names a run that ended without ending its processes, so the
/// next run may end what carries that tag (nothing else can: tags are random).
public final class TagLease: Sendable {
    public let path: String
    private let descriptor: Int32

    /// Creates and locks the lease for `tag` in `directory` (created 0700); nil when it cannot.
    public init?(tag: String, directory: String) {
        try? FilePath.makeDirectories(directory, mode: 0o700)
        path = directory + "/" + tag + Self.suffix
        descriptor = open(path, O_CREAT | O_RDWR | O_CLOEXEC | O_NOFOLLOW, 0o600)
        guard descriptor >= 0 else { return nil }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            close(descriptor)
            return nil
        }
    }

    /// The run ended its processes itself: the lease goes.
    public func release() {
        unlink(path)
        close(descriptor)
    }

    /// Tags in `directory` whose lease nobody holds; their files are removed. Locks are taken
    /// without waiting, so a lease a running lane holds is never reported.
    public static func abandonedTags(in directory: String) -> [String] {
        var abandoned: [String] = []
        for name in FilePath.entries(of: directory) where name.hasSuffix(suffix) {
            let path = directory + "/" + name
            let opened = open(path, O_RDWR | O_CLOEXEC | O_NOFOLLOW)
            guard opened >= 0 else { continue }
            if flock(opened, LOCK_EX | LOCK_NB) == 0 {
                abandoned.append(String(name.dropLast(suffix.count)))
                unlink(path)
            }
            close(opened)
        }
        return abandoned
    }

    private static let suffix = ".lease"
}
