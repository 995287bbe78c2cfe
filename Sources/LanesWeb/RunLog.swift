import Foundation
import LanesPlatform

/// Reads logs only from inside one folder: the path is resolved (symlinks included) and must stay
/// under the folder's own resolved path, so neither `..` nor a symlink in the folder reaches out.
public struct LogFolder: Sendable {
    public let directory: String

    public init(directory: String) {
        self.directory = directory
    }

    /// The resolved path of `path` when it is a file inside the folder; nil otherwise.
    public func contained(_ path: String) -> String? {
        guard let root = FilePath.realPath(directory), let resolved = FilePath.realPath(path),
              resolved.hasPrefix(root + "/"), !FilePath.isDirectory(resolved)
        else { return nil }
        return resolved
    }

    /// The size of the log, or nil when it is outside the folder or not a regular file.
    public func size(_ path: String) -> Int? {
        guard let resolved = contained(path) else { return nil }
        var info = stat()
        guard lstat(resolved, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        return Int(info.st_size)
    }

    /// The log's bytes from `offset` on (at most `maximum` of them), or nil when it is outside the
    /// folder, not a regular file, or unreadable. Only the bytes asked for are read, so a reader
    /// following a long log costs what it has not seen yet, not the whole file on every poll.
    public func read(_ path: String, from offset: Int = 0, maximum: Int = Int.max) -> [UInt8]? {
        guard let resolved = contained(path) else { return nil }
        // Non-blocking: a FIFO planted as a log must not hang the page; only regular files are read.
        let descriptor = open(resolved, O_RDONLY | O_NONBLOCK | O_CLOEXEC)
        guard descriptor >= 0 else { return nil }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else { return nil }
        let available = Int(info.st_size) - max(0, offset)
        guard available > 0 else { return [] }
        var bytes = [UInt8](repeating: 0, count: min(available, maximum))
        var filled = 0
        while filled < bytes.count {
            let count = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(offset + filled)) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else { break }
            filled += count
        }
        return Array(bytes[..<filled])
    }
}
