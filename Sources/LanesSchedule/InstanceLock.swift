import LanesPlatform

/// One daemon per state directory and one per project: an exclusive lock on `daemon.lock` in the
/// state folder (which names the holder's pid) and one on a lock file named after the project
/// (`ProjectState.projectKey`) in a folder of the user's own, so two daemons of one project with
/// different state folders never both run its lanes. Both lock files live in 0700 folders: a lock
/// on the project folder itself (as before) could be taken by any local user who can open it,
/// and the owner's daemon would refuse to start.
public final class InstanceLock {
    public let path: String
    private let locks: [FileLock]

    /// Takes both locks or throws naming the process that holds one. `projectLocks` is the folder of
    /// the per-project locks (made 0700); by default `<home>/.local/state/lanes/daemon-projects`, and
    /// without any home only the state folder's lock is taken.
    public init(path: String, projectDirectory: String? = nil,
                projectLocks: String? = InstanceLock.defaultProjectLocks(environment: ProcessEnvironment.current())) throws(HistoryStoreError) {
        self.path = path
        var locks: [FileLock] = []
        switch try Self.refusing({ () throws(PrivateFolder.Refusal) in try FileLock.lockFile(path) }) {
        case .taken(let lock): locks.append(lock)
        case .held(let holder):
            throw HistoryStoreError("another lanes daemon (pid \(holder ?? "?")) already runs for this project (lock \(path))")
        }
        if let projectDirectory, let projectLocks {
            let projectLock = projectLocks + "/" + ProjectState.projectKey(projectDirectory) + ".lock"
            switch try Self.refusing({ () throws(PrivateFolder.Refusal) in
                try PrivateFolder.prepare(projectLocks)
                return try FileLock.lockFile(projectLock)
            }) {
            case .taken(let lock): locks.append(lock)
            case .held(let holder):
                throw HistoryStoreError(
                    "another lanes daemon (pid \(holder ?? "?")) already runs for the project \(projectDirectory), with another state folder; one daemon per project runs its lanes (lock \(projectLock))")
            }
        }
        self.locks = locks
    }

    /// Where the per-project locks live: the user's state base, never a shared folder.
    public static func defaultProjectLocks(environment: [String: String]) -> String? {
        PrivateFolder.home(environment: environment).map { UserFolders.stateBase(environment: [:], home: $0) + "/lanes/daemon-projects" }
    }

    private static func refusing(_ body: () throws(PrivateFolder.Refusal) -> FileLock.Outcome) throws(HistoryStoreError) -> FileLock.Outcome {
        do { return try body() } catch { throw HistoryStoreError(error.message) }
    }
}
