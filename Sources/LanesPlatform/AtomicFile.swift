#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A write to a user file that is all or nothing: the bytes go to a temporary file in the same
/// directory, are flushed to disk, take their permissions and replace the file by `rename`, so a
/// crash or a full disk leaves the original as it was. The one atomic writer every module uses.
///
/// The file keeps its mode and owner. A file the user cannot write (or that has no write bit at
/// all: read-only by intent, even for root) is refused rather than replaced, although the folder
/// would allow the rename. Temporary files carry the writer's process ID; one left by a writer
/// that was killed (kill -9 between create and rename) is removed by the next write to the file.
public enum AtomicFile {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let path: String
        public let operation: String
        public let code: Int32
        public var description: String {
            "cannot write \(path): \(operation) failed (\(String(cString: strerror(code)))); the file was not changed"
        }

        init(path: String, operation: String, code: Int32) {
            self.path = path
            self.operation = operation
            self.code = code
        }
    }

    /// Writes `text` as UTF-8; see `write(_:to:permissions:)`.
    public static func write(_ text: String, to path: String, permissions: UInt32? = nil) throws(Failure) {
        try write(Array(text.utf8), to: path, permissions: permissions)
    }

    /// Writes `bytes` to `path`. A symbolic link is followed, so the file it points to is replaced
    /// and the link stays a link. `permissions` are applied when given (a private key: 0600);
    /// otherwise an existing file keeps its own and a new one gets 0644.
    public static func write(_ bytes: [UInt8], to requestedPath: String, permissions: UInt32? = nil) throws(Failure) {
        let path = resolvingSymbolicLink(requestedPath)
        // A device or a pipe (`--junit /dev/null`, `/dev/stdout`) is written in place: renaming over
        // it would replace the device node itself, for every program on the machine.
        var target = stat()
        if stat(path, &target) == 0, target.st_mode & S_IFMT != S_IFREG {
            try writeInPlace(bytes, to: path, kind: target.st_mode & S_IFMT)
            return
        }
        let directory = path.lastIndex(of: "/").map { String(path[..<$0]) } ?? "."
        let name = path.lastIndex(of: "/").map { String(path[path.index(after: $0)...]) } ?? path
        let folder = directory.isEmpty ? "/" : directory
        var existing = stat()
        let exists = stat(path, &existing) == 0
        if exists {
            guard existing.st_mode & 0o222 != 0, faccessat(AT_FDCWD, path, W_OK, AT_EACCESS) == 0 else {
                throw Failure(path: path, operation: "checking that the file is writable", code: EACCES)
            }
        }
        removeStaleTemporaries(of: name, in: folder)
        guard case let (temporary, descriptor)? = Self.openTemporary(prefix: "\(folder)/.\(name).\(temporaryMarker)\(getpid())-") else {
            throw Failure(path: path, operation: "creating a temporary file", code: errno)
        }
        var isOpen = true
        do throws(Failure) {
            if exists, existing.st_uid != geteuid() || existing.st_gid != getegid() {
                guard fchown(descriptor, existing.st_uid, existing.st_gid) == 0 else {
                    throw Failure(path: path, operation: "keeping the file's owner", code: errno)
                }
            }
            let mode = permissions.map { mode_t($0) } ?? (exists ? existing.st_mode & 0o7777 : 0o644)
            guard fchmod(descriptor, mode) == 0 else { throw Failure(path: path, operation: "chmod", code: errno) }
            guard FileDescriptorIO.writeAll(bytes, to: descriptor) else { throw Failure(path: path, operation: "write", code: errno) }
            guard fsync(descriptor) == 0 else { throw Failure(path: path, operation: "fsync", code: errno) }
            isOpen = false
            guard close(descriptor) == 0 else { throw Failure(path: path, operation: "close", code: errno) }
            guard rename(temporary, path) == 0 else { throw Failure(path: path, operation: "rename", code: errno) }
        } catch {
            if isOpen { close(descriptor) }
            unlink(temporary)
            throw error
        }
        // Make the rename itself durable.
        let directoryDescriptor = open(directory.isEmpty ? "/" : directory, O_RDONLY)
        if directoryDescriptor >= 0 {
            fsync(directoryDescriptor)
            close(directoryDescriptor)
        }
    }
}

extension AtomicFile {
    /// A new file named `prefix` and a random suffix, created exclusively (never through a link), mode
    /// 0600 and close-on-exec, as `mkstemp`'s is not: a child another thread starts meanwhile must not
    /// inherit it, or an executable written there cannot be started (ETXTBSY) until that child ends.
    /// Nil with `errno` set when it cannot be created.
    public static func openTemporary(prefix: String) -> (path: String, descriptor: Int32)? {
        var generator = SystemRandomNumberGenerator()
        while true {
            let path = prefix + String(generator.next() as UInt64, radix: 36)
            let descriptor = open(path, O_RDWR | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, mode_t(0o600))
            if descriptor >= 0 { return (path, descriptor) }
            if errno != EEXIST { return nil }
        }
    }
}

extension AtomicFile {
    /// Writes a secret (a clear private key) to `path`, all or nothing, with no moment at which
    /// anyone but this user can open it: the temporary file is created `O_CREAT|O_EXCL|O_NOFOLLOW`
    /// with mode 0600 before a byte is written, then renamed over `path` (a link there is
    /// replaced, not followed). The folder must be the user's own (`PrivateFolder.prepare`): in a
    /// folder others may write, no name is safe.
    public static func writePrivate(_ bytes: [UInt8], to path: String) throws(Failure) {
        let folder = FilePath.directory(of: path)
        let name = FilePath.name(of: path)
        removeStaleTemporaries(of: name, in: folder)
        guard case let (temporary, descriptor)? = openTemporary(prefix: "\(folder)/.\(name).\(temporaryMarker)\(getpid())-") else {
            throw Failure(path: path, operation: "creating a private temporary file", code: errno)
        }
        var isOpen = true
        do throws(Failure) {
            guard FileDescriptorIO.writeAll(bytes, to: descriptor) else { throw Failure(path: path, operation: "write", code: errno) }
            guard fsync(descriptor) == 0 else { throw Failure(path: path, operation: "fsync", code: errno) }
            isOpen = false
            guard close(descriptor) == 0 else { throw Failure(path: path, operation: "close", code: errno) }
            guard rename(temporary, path) == 0 else { throw Failure(path: path, operation: "rename", code: errno) }
        } catch {
            if isOpen { close(descriptor) }
            unlink(temporary)
            throw error
        }
    }

    private static func writeInPlace(_ bytes: [UInt8], to path: String, kind: mode_t) throws(Failure) {
        guard kind == S_IFCHR || kind == S_IFIFO else { throw Failure(path: path, operation: "writing to a non-file", code: EISDIR) }
        let descriptor = open(path, O_WRONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(path: path, operation: "open", code: errno) }
        defer { close(descriptor) }
        guard FileDescriptorIO.writeAll(bytes, to: descriptor) else { throw Failure(path: path, operation: "write", code: errno) }
    }
}

/// Marks lanes' temporary files: `.NAME.lanes-tmp-PID-XXXXXX`.
let temporaryMarker = "lanes-tmp-"

/// Removes temporary files of `name` whose writer process no longer exists.
func removeStaleTemporaries(of name: String, in folder: String) {
    let prefix = ".\(name).\(temporaryMarker)"
    for entry in FilePath.entries(of: folder) where entry.hasPrefix(prefix) {
        let rest = entry.dropFirst(prefix.count)
        guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]) else { continue }
        if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { unlink(folder + "/" + entry) }
    }
}

/// The file a symbolic link points to (absolute), or the path itself when it is not a link.
func resolvingSymbolicLink(_ path: String) -> String {
    var info = stat()
    guard lstat(path, &info) == 0, info.st_mode & S_IFMT == S_IFLNK, let resolved = realpath(path, nil) else { return path }
    defer { free(resolved) }
    return String(cString: resolved)
}
