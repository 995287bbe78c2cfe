internal import LanesPlatform

/// A regular file read in fixed pieces, never whole: what the archive writers pack and the zip
/// reader reads. Opened without blocking, so a FIFO put in its place is refused, not waited on.
final class ArchiveFile {
    let path: String
    let descriptor: Int32
    let size: Int
    /// Permission bits.
    let mode: Int

    /// The piece read at a time.
    static let chunkSize = 1 << 20

    /// Opens `path`; with `followingLinks` false a symbolic link put in its place is refused.
    init(path: String, followingLinks: Bool = true) throws(BuildError) {
        let descriptor = open(path, O_RDONLY | O_NONBLOCK | O_CLOEXEC | (followingLinks ? 0 : O_NOFOLLOW))
        guard descriptor >= 0 else { throw .file(path: path, problem: "cannot be read: \(String(cString: strerror(errno)))") }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG else {
            close(descriptor)
            throw .file(path: path, problem: "is not a regular file")
        }
        self.path = path
        self.descriptor = descriptor
        self.size = Int(info.st_size)
        self.mode = Int(info.st_mode & 0o7777)
    }

    deinit { close(descriptor) }

    /// Up to `count` bytes at `offset` (fewer only at the end of the file).
    func read(at offset: Int, count: Int) throws(BuildError) -> [UInt8] {
        var bytes = [UInt8](repeating: 0, count: max(0, count))
        var filled = 0
        while filled < bytes.count {
            let got = bytes.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress! + filled, $0.count - filled, off_t(offset + filled)) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw .file(path: path, problem: "cannot be read: \(String(cString: strerror(errno)))") }
            if got == 0 { break }
            filled += got
        }
        if filled < bytes.count { bytes.removeSubrange(filled...) }
        return bytes
    }

    /// Hands `count` bytes from `offset` to `body`, a piece at a time; fails when the file ends
    /// first (it shrank while being read).
    func forEachChunk(from offset: Int = 0, count: Int, _ body: (UnsafeRawBufferPointer) throws -> Void) throws {
        var buffer = [UInt8](repeating: 0, count: min(Self.chunkSize, max(count, 1)))
        var done = 0
        while done < count {
            let wanted = min(buffer.count, count - done)
            let got = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress!, wanted, off_t(offset + done)) }
            if got < 0, errno == EINTR { continue }
            guard got >= 0 else { throw BuildError.file(path: path, problem: "cannot be read: \(String(cString: strerror(errno)))") }
            guard got > 0 else { throw BuildError.file(path: path, problem: "ended after \(offset + done) bytes, not \(offset + count): it changed while lanes read it") }
            try buffer.withUnsafeBytes { try body(UnsafeRawBufferPointer(rebasing: $0[..<got])) }
            done += got
        }
    }

    /// True when the file has grown past `size` since it was opened.
    var grew: Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && Int(info.st_size) != size
    }
}
