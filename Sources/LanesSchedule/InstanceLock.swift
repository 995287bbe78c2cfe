import LanesPlatform

/// One daemon per state directory and one per project: an exclusive lock on `daemon.lock` in the
/// state folder (which names the holder's pid) and one on the project folder itself, so two
/// daemons of one project with different state folders never both run its lanes.
public final class InstanceLock {
    public let path: String
    private let locks: [FileLock]

    /// Takes both locks or throws naming the process that holds one.
    public init(path: String, projectDirectory: String? = nil) throws(HistoryStoreError) {
        self.path = path
        var locks: [FileLock] = []
        switch try Self.refusing({ () throws(PrivateFolder.Refusal) in try FileLock.lockFile(path) }) {
        case .taken(let lock): locks.append(lock)
        case .held(let holder):
            throw HistoryStoreError("another lanes daemon (pid \(holder ?? "?")) already runs for this project (lock \(path))")
        }
        if let projectDirectory {
            switch try Self.refusing({ () throws(PrivateFolder.Refusal) in try FileLock.lockFolder(projectDirectory) }) {
            case .taken(let lock): locks.append(lock)
            case .held:
                throw HistoryStoreError(
                    "another lanes daemon already runs for the project \(projectDirectory), with another state folder; one daemon per project runs its lanes")
            }
        }
        self.locks = locks
    }

    private static func refusing(_ body: () throws(PrivateFolder.Refusal) -> FileLock.Outcome) throws(HistoryStoreError) -> FileLock.Outcome {
        do { return try body() } catch { throw HistoryStoreError(error.message) }
    }
}
