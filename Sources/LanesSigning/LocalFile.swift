internal import LanesPlatform

/// Small POSIX file operations with errors that name the file. POSIX rather than FileManager so
/// that the cleanup path (`removeFlatDirectory`) takes no locks and allocates little.
enum LocalFile {
    /// Signing files (certificates, keys, profiles, keychain indexes) are kilobytes; anything
    /// larger is not one, and reading it whole (`/dev/zero`) would exhaust memory.
    static let largestSigningFile = 16 * 1024 * 1024

    static func contents(of path: String) throws(SigningError) -> [UInt8] {
        // Non-blocking open, then only a regular file is read: a FIFO among the signing files
        // would otherwise hang `lanes doctor`, `cert info` and the /signing page for good.
        let descriptor = open(path, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { throw .fileUnreadable(path: path, reason: errnoText()) }
        defer { close(descriptor) }
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { throw .fileUnreadable(path: path, reason: errnoText()) }
        guard info.st_mode & S_IFMT == S_IFREG else {
            let kind = info.st_mode & S_IFMT == S_IFIFO ? "a FIFO (named pipe)" : info.st_mode & S_IFMT == S_IFDIR ? "a folder" : "a device or socket"
            throw .fileUnreadable(path: path, reason: "it is \(kind), not a regular file")
        }
        _ = fcntl(descriptor, F_SETFL, fcntl(descriptor, F_GETFL) & ~O_NONBLOCK)
        switch FileDescriptorIO.readAll(from: descriptor, limit: largestSigningFile) {
        case .complete(let bytes):
            return bytes
        case .tooLarge:
            throw .fileUnreadable(path: path, reason: "it is larger than 16 MiB, which no certificate, key or provisioning profile is")
        case .failed(let code):
            throw .fileUnreadable(path: path, reason: String(cString: strerror(code)))
        }
    }

    /// Writes `bytes` atomically with permission `mode` (see `AtomicFile`).
    static func writeAtomically(_ bytes: [UInt8], to path: String, mode: mode_t) throws(SigningError) {
        do {
            try AtomicFile.write(bytes, to: path, permissions: UInt32(mode))
        } catch {
            throw .fileUnwritable(path: path, reason: error.description)
        }
    }

    /// Creates `path` (and missing parents) with `mode`; `forceMode` also applies `mode` to a
    /// directory that already existed (a keychain directory must be private however it came to be).
    static func makeDirectory(_ path: String, mode: mode_t, forceMode: Bool = true) throws(SigningError) {
        let components = path.split(separator: "/", omittingEmptySubsequences: true)
        var prefix = path.hasPrefix("/") ? "" : "."
        for (index, component) in components.enumerated() {
            prefix += "/" + component
            let isLast = index == components.count - 1
            if mkdir(prefix, isLast ? mode : 0o755) != 0, errno != EEXIST {
                throw .fileUnwritable(path: prefix, reason: errnoText())
            }
        }
        if forceMode, chmod(path, mode) != 0 { throw .fileUnwritable(path: path, reason: errnoText()) }
    }

    /// Removes a directory holding only plain files. A missing directory is success, so calling it
    /// twice (a failing lane, then Ctrl-C) is harmless.
    static func removeFlatDirectory(_ path: String) throws(SigningError) {
        guard let directory = opendir(path) else {
            if errno == ENOENT { return }
            throw .fileUnwritable(path: path, reason: errnoText())
        }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(decoding: raw.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        closedir(directory)
        for name in names where unlink(path + "/" + name) != 0 && errno != ENOENT {
            throw .fileUnwritable(path: path + "/" + name, reason: errnoText())
        }
        if rmdir(path) != 0 && errno != ENOENT { throw .fileUnwritable(path: path, reason: errnoText()) }
    }

    static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    static func mode(of path: String) -> mode_t? {
        var info = stat()
        return stat(path, &info) == 0 ? info.st_mode & 0o7777 : nil
    }

    static func errnoText() -> String { String(cString: strerror(errno)) }
}

/// Reading a signing file (certificate, key, profile) whole, bounded, with errors naming it.
public enum SigningFile {
    public static func contents(of path: String) throws(SigningError) -> [UInt8] { try LocalFile.contents(of: path) }
}
