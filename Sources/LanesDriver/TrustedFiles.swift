import LanesPlatform

/// The driver's rules for what it may run with the user's secrets, checked with a few `lstat`
/// calls on the hot path (no Foundation):
/// - the runner cache is private: created 0700, and a runner (or its folder) that another user
///   owns, or that group or others may write, is not run but compiled again;
/// - a `Lanefile.swift` found in a folder above the current one must belong to the user, unless
///   that folder is listed in `LANES_SAFE_DIRECTORIES` (as git's `safe.directory`; CVE-2022-24765).
struct TrustedFiles {
    static let safeDirectoriesVariable = "LANES_SAFE_DIRECTORIES"

    let userID: uid_t
    let environment: [String: String]

    init(environment: [String: String], userID: uid_t = geteuid()) {
        self.environment = environment
        self.userID = userID
    }

    /// Whether `path` is what it should be (not a link), owned by the user, and not writable by
    /// group or others.
    func isPrivate(_ path: String, directory: Bool) -> Bool {
        var info = stat()
        guard lstat(path, &info) == 0 else { return false }
        let kind = info.st_mode & S_IFMT
        return kind == (directory ? S_IFDIR : S_IFREG) && info.st_uid == userID && info.st_mode & 0o022 == 0
    }

    /// Creates the cache folder 0700 or checks the existing one: it must be the user's; a folder
    /// the user owns but others may write is made private.
    /// A cached runner and its folder belong to this user and nobody else can write them.
    func isPrivateRunner(_ runner: String) -> Bool {
        isPrivate(runner, directory: false) && isPrivate(FilePath.directory(of: runner), directory: true)
    }

    func prepareCache(_ directory: String) throws {
        if !FilePath.exists(directory) {
            do {
                try FilePath.makeDirectories(directory, mode: 0o700)
            } catch {
                throw DriverError("cannot create the runner cache \(directory): \(error)",
                                  hint: "set LANES_CACHE_DIR to a folder you own", kind: .configuration)
            }
        }
        var info = stat()
        guard lstat(directory, &info) == 0, info.st_mode & S_IFMT == S_IFDIR, info.st_uid == userID else {
            throw DriverError("the runner cache \(directory) is not a folder owned by you; lanes will not run code others could have put there",
                              hint: "set LANES_CACHE_DIR to a private folder of yours", kind: .configuration)
        }
        if info.st_mode & 0o077 != 0 { chmod(directory, 0o700) }
    }

    /// Refuses a Lanefile found in a folder above `start` that another user owns.
    func checkFoundLanefile(_ lanefile: String, searchedFrom start: String) throws {
        let folder = FilePath.directory(of: lanefile)
        guard folder != start, folder != (FilePath.realPath(start) ?? start) else { return }
        var info = stat()
        guard stat(lanefile, &info) == 0 else { return }
        if info.st_uid == userID || isListedSafe(folder) { return }
        throw DriverError(
            "refusing to run \(lanefile): it is owned by \(Self.userName(info.st_uid)), not by you, and lies in a folder above this one; a Lanefile runs with your secrets",
            hint: "if you trust it, export \(Self.safeDirectoriesVariable)=\(folder) (several folders separated by ':', or '*' for all), or pass --lanefile \(lanefile)",
            kind: .configuration)
    }

    private func isListedSafe(_ folder: String) -> Bool {
        let listed = (environment[Self.safeDirectoriesVariable] ?? "").split(separator: ":").map(String.init)
        return listed.contains("*") || listed.contains { entry in
            let trimmed = entry.count > 1 && entry.hasSuffix("/") ? String(entry.dropLast()) : entry
            return trimmed == folder || FilePath.realPath(trimmed) == folder
        }
    }

    static func userName(_ id: uid_t) -> String {
        guard let entry = getpwuid(id), let name = entry.pointee.pw_name else { return "user \(id)" }
        return "user \(id) (\(String(cString: name)))"
    }

    /// The user's home from the password database, for when `HOME` is unset.
    static func homeFromPasswordDatabase(_ id: uid_t = geteuid()) -> String? {
        guard let entry = getpwuid(id), let directory = entry.pointee.pw_dir else { return nil }
        let home = String(cString: directory)
        return home.isEmpty || home == "/" ? nil : home
    }
}
