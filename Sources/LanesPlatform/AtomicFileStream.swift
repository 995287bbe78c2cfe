#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// `AtomicFile` for a file too large to hold in memory (a 6 GB dSYM zip): bytes are written as they
/// come to a temporary file beside the destination, which replaces the destination only in
/// `commit()`. Dropped without a commit (an error, a throw between writes), the temporary file
/// is removed and the destination stays as it was.
public final class AtomicFileStream {
    public let path: String
    private let temporary: String
    private var descriptor: Int32
    private let permissions: mode_t
    /// Bytes written so far: the offset the next `write` lands at.
    public private(set) var offset = 0

    /// Opens a temporary file for `path` (links followed, as `AtomicFile.write` does). `permissions`
    /// are set before the first byte is written; a new file otherwise gets 0644.
    public init(path requestedPath: String, permissions: UInt32? = nil) throws(AtomicFile.Failure) {
        let path = resolvingSymbolicLink(requestedPath)
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let folder = directory.isEmpty ? "/" : directory
        removeStaleTemporaries(of: name, in: folder)
        guard case let (temporary, descriptor)? = AtomicFile.openTemporary(prefix: "\(folder)/.\(name).\(temporaryMarker)\(getpid())-") else {
            throw AtomicFile.Failure(path: path, operation: "creating a temporary file", code: errno)
        }
        self.path = path
        self.descriptor = descriptor
        self.temporary = temporary
        var existing = stat()
        self.permissions = permissions.map { mode_t($0) } ?? (stat(path, &existing) == 0 ? existing.st_mode & 0o7777 : 0o644)
        guard fchmod(descriptor, self.permissions) == 0 else { throw failure("chmod") }
    }

    deinit {
        if descriptor >= 0 {
            close(descriptor)
            unlink(temporary)
        }
    }

    public func write(_ bytes: UnsafeRawBufferPointer) throws(AtomicFile.Failure) {
        var done = 0
        while done < bytes.count {
            let count = systemWrite(descriptor, bytes.baseAddress! + done, bytes.count - done)
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("write")
            }
            done += count
        }
        offset += bytes.count
    }

    public func write(_ bytes: [UInt8]) throws(AtomicFile.Failure) {
        var failure: AtomicFile.Failure?
        bytes.withUnsafeBytes { buffer in
            do throws(AtomicFile.Failure) { try write(buffer) } catch { failure = error }
        }
        if let failure { throw failure }
    }

    /// Replaces bytes already written (a header whose sizes are known only after its data).
    public func overwrite(_ bytes: [UInt8], at position: Int) throws(AtomicFile.Failure) {
        precondition(position >= 0 && position + bytes.count <= offset, "overwrite past what was written")
        var done = 0
        while done < bytes.count {
            let count = bytes.withUnsafeBytes { pwrite(descriptor, $0.baseAddress! + done, $0.count - done, off_t(position + done)) }
            if count < 0 {
                if errno == EINTR { continue }
                throw failure("pwrite")
            }
            done += count
        }
    }

    /// Drops everything from `position` on; the next write lands there.
    public func truncate(to position: Int) throws(AtomicFile.Failure) {
        precondition(position >= 0 && position <= offset)
        guard ftruncate(descriptor, off_t(position)) == 0 else { throw failure("ftruncate") }
        guard lseek(descriptor, off_t(position), SEEK_SET) >= 0 else { throw failure("lseek") }
        offset = position
    }

    /// Flushes the file to disk and renames it over `path`.
    public func commit() throws(AtomicFile.Failure) {
        guard fsync(descriptor) == 0 else { throw failure("fsync") }
        let closing = descriptor
        descriptor = -1
        guard close(closing) == 0 else {
            unlink(temporary)
            throw AtomicFile.Failure(path: path, operation: "close", code: errno)
        }
        guard rename(temporary, path) == 0 else {
            let code = errno
            unlink(temporary)
            throw AtomicFile.Failure(path: path, operation: "rename", code: code)
        }
        let folder = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let directoryDescriptor = open(folder.isEmpty ? "/" : folder, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }

    private func failure(_ operation: String) -> AtomicFile.Failure {
        AtomicFile.Failure(path: path, operation: operation, code: errno)
    }
}

/// `write(2)`, spelled apart from the method of the same name.
private func systemWrite(_ descriptor: Int32, _ bytes: UnsafeRawPointer, _ count: Int) -> Int {
    write(descriptor, bytes, count)
}
