import LanesPlatform

/// One daemon per state directory: an exclusive `flock` on `daemon.lock`, held while the process
/// lives and released by the kernel when it dies (kill -9 included), so no stale lock outlives it.
public final class InstanceLock {
    public let path: String
    private let descriptor: Int32

    /// Takes the lock or throws naming the process that holds it.
    public init(path: String) throws(HistoryStoreError) {
        self.path = path
        let fd = open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard fd >= 0 else { throw HistoryStoreError("cannot open \(path): \(String(cString: strerror(errno)))") }
        guard flock(fd, LOCK_EX | LOCK_NB) == 0 else {
            var buffer = [UInt8](repeating: 0, count: 32)
            let count = read(fd, &buffer, buffer.count)
            close(fd)
            let holder = count > 0 ? String(decoding: buffer[..<count], as: UTF8.self).split(separator: "\n").first.map(String.init) ?? "?" : "?"
            throw HistoryStoreError("another lanes daemon (pid \(holder)) already runs for this project (lock \(path))")
        }
        ftruncate(fd, 0)
        let pid = Array("\(getpid())\n".utf8)
        _ = pid.withUnsafeBytes { pwrite(fd, $0.baseAddress, $0.count, 0) }
        descriptor = fd
    }

    deinit { close(descriptor) }
}
