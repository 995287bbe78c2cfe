#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Folders and files a process trusts with what it runs and records (the daemon's state folder,
/// its Lanefile copies, its logs): real folders and files, not links, owned by the user running
/// it, and writable by nobody else. Another local user who could create or write one could plant
/// a history, a Lanefile, or a link that makes a root daemon truncate any file.
public enum PrivateFolder {
    /// A folder or file that is not private, or that cannot be made so.
    public struct Refusal: Error, CustomStringConvertible, Sendable {
        public let message: String
        public var description: String { message }
        init(_ message: String) { self.message = message }
    }

    /// The user's home: `HOME` when set, else the password database's entry for the effective
    /// user (a systemd system service has no `HOME`). Never a shared folder such as `/tmp`.
    public static func home(environment: [String: String], user: uid_t = geteuid()) -> String? {
        if let home = environment["HOME"], home.hasPrefix("/") { return home }
        guard let entry = getpwuid(user), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.hasPrefix("/") && home != "/" ? home : nil
    }

    /// Creates `path` 0700 (missing parents too), or checks the folder that is there: a folder, not
    /// a link, owned by `owner`, writable by nobody else. Existing folders above it must not be
    /// writable by others (unless sticky, as `/tmp`) nor owned by another user than `owner` or root,
    /// or whoever could write them could swap the folder for theirs.
    public static func prepare(_ path: String, owner: uid_t = geteuid()) throws(Refusal) {
        var info = stat()
        if lstat(path, &info) != 0 {
            guard errno == ENOENT else { throw Refusal("cannot inspect \(path): \(String(cString: strerror(errno)))") }
            let parent = FilePath.directory(of: path)
            if parent != path, !FilePath.isDirectory(parent) { try prepare(parent, owner: owner) }
            if mkdir(path, 0o700) != 0, errno != EEXIST {
                throw Refusal("cannot create \(path): \(String(cString: strerror(errno)))")
            }
        }
        try check(path, directory: true, owner: owner)
        try checkAncestors(of: path, owner: owner)
    }

    /// Refuses `path` unless it is a folder (or a regular file) and not a link, owned by `owner`,
    /// and not writable by group or others.
    public static func check(_ path: String, directory: Bool, owner: uid_t = geteuid()) throws(Refusal) {
        var info = stat()
        guard lstat(path, &info) == 0 else { throw Refusal("cannot inspect \(path): \(String(cString: strerror(errno)))") }
        let kind = info.st_mode & S_IFMT
        let wanted: mode_t = directory ? S_IFDIR : S_IFREG
        guard kind == wanted else {
            throw Refusal("\(path) is \(describe(kind)), not a \(directory ? "folder" : "regular file"); lanes will not use it")
        }
        guard info.st_uid == owner else {
            throw Refusal("\(path) is owned by \(userName(info.st_uid)), not by \(userName(owner)) who runs lanes; lanes will not trust it")
        }
        guard info.st_mode & 0o022 == 0 else {
            throw Refusal("\(path) is writable by \(info.st_mode & 0o002 != 0 ? "others" : "its group") (mode \(String(info.st_mode & 0o7777, radix: 8))); lanes will not trust it")
        }
    }

    /// Opens `path` for a lock: created 0600, never through a link, and refused unless it is the
    /// owner's regular file. Returns the descriptor (close-on-exec).
    public static func openLockFile(_ path: String, owner: uid_t = geteuid()) throws(Refusal) -> Int32 {
        let descriptor = open(path, O_RDWR | O_CREAT | O_CLOEXEC | O_NOFOLLOW | O_NONBLOCK, 0o600)
        guard descriptor >= 0 else {
            let reason = errno == ELOOP ? "it is a symbolic link" : String(cString: strerror(errno))
            throw Refusal("cannot open the lock \(path): \(reason)")
        }
        var info = stat()
        guard fstat(descriptor, &info) == 0, info.st_mode & S_IFMT == S_IFREG, info.st_uid == owner, info.st_mode & 0o022 == 0 else {
            close(descriptor)
            throw Refusal("the lock \(path) is not a private regular file of \(userName(owner)); lanes will not use it")
        }
        return descriptor
    }

    private static func checkAncestors(of path: String, owner: uid_t) throws(Refusal) {
        var current = FilePath.directory(of: path)
        while true {
            var info = stat()
            if stat(current, &info) == 0 {
                let sticky = info.st_mode & S_ISVTX != 0
                if info.st_uid != owner && info.st_uid != 0 {
                    throw Refusal("\(current), above \(path), is owned by \(userName(info.st_uid)); they could replace the folder lanes keeps its state in")
                }
                if info.st_mode & 0o002 != 0 && !sticky {
                    throw Refusal("\(current), above \(path), is writable by others; anyone could replace the folder lanes keeps its state in")
                }
            }
            if current == "/" || current.isEmpty || current == "." { return }
            current = FilePath.directory(of: current)
        }
    }

    private static func describe(_ kind: mode_t) -> String {
        switch kind {
        case S_IFLNK: return "a symbolic link"
        case S_IFDIR: return "a folder"
        case S_IFREG: return "a regular file"
        case S_IFIFO: return "a FIFO"
        case S_IFSOCK: return "a socket"
        default: return "a device or special file"
        }
    }

    public static func userName(_ id: uid_t) -> String {
        guard let entry = getpwuid(id), let name = entry.pointee.pw_name else { return "user \(id)" }
        return "\(String(cString: name)) (uid \(id))"
    }
}
