#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Path and file helpers on the C library directly: the driver must start in a few milliseconds,
/// so nothing on its path loads Foundation.
public enum FilePath {
    public static func exists(_ path: String) -> Bool { access(path, F_OK) == 0 }

    public static func isDirectory(_ path: String) -> Bool {
        var info = stat()
        return stat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// A folder itself, not a symbolic link to one (what a cleaner may descend into).
    public static func isDirectoryNotLink(_ path: String) -> Bool {
        var info = stat()
        return lstat(path, &info) == 0 && (info.st_mode & S_IFMT) == S_IFDIR
    }

    /// Deletes one file or symbolic link, or one empty folder; false when it is still there.
    @discardableResult
    public static func removeEntry(_ path: String) -> Bool {
        isDirectoryNotLink(path) ? rmdir(path) == 0 : unlink(path) == 0
    }

    public static func directory(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return "." }
        return slash == path.startIndex ? "/" : String(path[..<slash])
    }

    public static func name(of path: String) -> String {
        guard let slash = path.lastIndex(of: "/") else { return path }
        return String(path[path.index(after: slash)...])
    }

    public static func absolute(_ path: String, from directory: String) -> String {
        path.hasPrefix("/") ? path : directory + "/" + path
    }

    public static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// The running executable's real path: the kernel's answer (`executablePathFromSystem`, one
    /// file per OS), else `argv[0]` resolved as the shell did: relative to the current folder when
    /// it holds a slash, else the first match on `PATH`.
    public static func executable() throws -> String {
        if let path = executablePathFromSystem().flatMap(realPath) { return path }
        let name = CommandLine.arguments.first ?? ""
        guard let path = resolveInvocation(name, path: getenv("PATH").map { String(cString: $0) }) else {
            throw InstallationError("cannot resolve the path of the lanes executable (\(name))")
        }
        return path
    }

    /// The real path of a program started as `name` (its `argv[0]`), as the shell found it.
    public static func resolveInvocation(_ name: String, path: String?) -> String? {
        guard !name.isEmpty else { return nil }
        return (name.contains("/") ? name : which(name, path: path)).flatMap(realPath)
    }

    public static func currentDirectory() -> String {
        guard let pointer = getcwd(nil, 0) else { return "." }
        defer { free(pointer) }
        return String(cString: pointer)
    }

    /// The first `directory/relative` that exists, walking from `directory` up to the root.
    public static func findUpwards(_ relative: String, from directory: String) -> String? {
        var current = directory
        while true {
            let candidate = current == "/" ? "/" + relative : current + "/" + relative
            if exists(candidate) { return candidate }
            if current == "/" || current.isEmpty { return nil }
            current = Self.directory(of: current)
        }
    }

    public static func readBytes(_ path: String) throws -> [UInt8] {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            throw InstallationError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        defer { close(descriptor) }
        guard let bytes = FileDescriptorIO.readAll(from: descriptor) else {
            throw InstallationError("cannot read \(path): \(String(cString: strerror(errno)))")
        }
        return bytes
    }

    public static func read(_ path: String) throws -> String {
        String(decoding: try readBytes(path), as: UTF8.self)
    }

    /// A stat fingerprint (path, size, modification time) of a tool file lanes ships or uses.
    /// Fine for the toolchain and lanes' own files, which change only by reinstalling (a new time);
    /// never used for Lanefile sources, whose cache key is their content (CI clones have fresh mtimes).
    /// No device or inode: a CI job that restores lanes and its runner cache from an archive gets
    /// new inodes each time, and the runner it compiled before must still be found.
    public static func fingerprint(_ path: String) -> String {
        var info = stat()
        guard stat(path, &info) == 0 else { return "missing:\(path)" }
        return "\(path):\(info.st_size):\(FileTimes.modification(of: info).tv_sec).\(FileTimes.modification(of: info).tv_nsec)"
    }

    /// The size in bytes of the file at `path` (links followed), or nil when it cannot be inspected.
    public static func size(of path: String) -> Int64? {
        var info = stat()
        return stat(path, &info) == 0 ? Int64(info.st_size) : nil
    }

    public static func makeDirectories(_ path: String, mode: mode_t = 0o755) throws {
        if isDirectory(path) { return }
        let parent = directory(of: path)
        if parent != path { try makeDirectories(parent, mode: mode) }
        if mkdir(path, mode) != 0 && errno != EEXIST {
            throw InstallationError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// Finds `program` on PATH, as a shell would.
    public static func which(_ program: String, path: String?) -> String? {
        if program.contains("/") { return exists(program) ? program : nil }
        for directory in (path ?? "/usr/bin:/bin").split(separator: ":") {
            let candidate = "\(directory)/\(program)"
            if access(candidate, X_OK) == 0 { return candidate }
        }
        return nil
    }

    /// The names in a folder, without `.` and `..`; empty when it cannot be read.
    public static func entries(of path: String) -> [String] {
        guard let directory = opendir(path) else { return [] }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
            if name != ".", name != ".." { names.append(name) }
        }
        return names
    }

    /// Deletes a folder and everything in it (symbolic links are removed, not followed).
    public static func removeTree(_ path: String) {
        var info = stat()
        guard lstat(path, &info) == 0 else { return }
        guard (info.st_mode & S_IFMT) == S_IFDIR else {
            unlink(path)
            return
        }
        for name in entries(of: path) { removeTree(path + "/" + name) }
        rmdir(path)
    }
}
