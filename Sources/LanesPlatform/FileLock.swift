#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// An exclusive `flock` held while the process lives, released by the kernel when it dies
/// (kill -9 included), so no stale lock outlives its holder.
public final class FileLock {
    public let path: String
    private let descriptor: Int32

    /// Whether the lock was taken, or who holds it.
    public enum Outcome {
        case taken(FileLock)
        /// The first line of the lock file (a holder writes its pid there), or nil.
        case held(by: String?)
    }

    /// Locks the private lock file `path` (see `PrivateFolder.openLockFile`) and writes this
    /// process's id into it.
    public static func lockFile(_ path: String) throws(PrivateFolder.Refusal) -> Outcome {
        let descriptor = try PrivateFolder.openLockFile(path)
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = pread(descriptor, &buffer, buffer.count, 0)
            close(descriptor)
            let text = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self) : ""
            return .held(by: text.split(separator: "\n").first.map(String.init))
        }
        ftruncate(descriptor, 0)
        let pid = Array("\(getpid())\n".utf8)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        return .taken(FileLock(path: path, descriptor: descriptor))
    }

    private init(path: String, descriptor: Int32) {
        self.path = path
        self.descriptor = descriptor
    }

    deinit { close(descriptor) }
}
