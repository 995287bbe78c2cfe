import Foundation
import LanesPlatform
import LanesSchedule
import Testing

/// Issue 21 (high): the daemon's state folder is the user's alone. It never falls back to a shared
/// folder, refuses folders and lock files others could have planted, and one project has one daemon
/// whatever state folder each is given.
@Suite(.timeLimit(.minutes(3))) struct StateFolderTests {
    @Test func withoutHomeTheStateFolderComesFromThePasswordDatabaseNeverTmp() throws {
        let directory = try HistoryStore.defaultDirectory(projectDirectory: "/srv/app", environment: [:])
        #expect(!directory.hasPrefix("/tmp"), "\(directory)")
        let home = try #require(PrivateFolder.home(environment: [:]))
        #expect(directory.hasPrefix(home + "/.local/state/lanes/app-"), "\(directory) is not under \(home)")
        // HOME and XDG_STATE_HOME still win when set.
        #expect(try HistoryStore.defaultDirectory(projectDirectory: "/srv/app", environment: ["HOME": "/home/x"]).hasPrefix("/home/x/.local/state/lanes/"))
        #expect(try HistoryStore.defaultDirectory(projectDirectory: "/srv/app", environment: ["XDG_STATE_HOME": "/s"]).hasPrefix("/s/lanes/"))
    }

    @Test func newStateFoldersAreCreatedPrivate() throws {
        let base = try temporaryDirectory("state-new", preferMemory: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let folder = base + "/a/b/state"
        try PrivateFolder.prepare(folder)
        let mode = try #require(FileManager.default.attributesOfItem(atPath: folder)[.posixPermissions] as? Int)
        #expect(mode == 0o700, "mode \(String(mode, radix: 8))")
        try PrivateFolder.prepare(folder)  // an existing private folder is fine
    }

    @Test func foldersWritableByOthersOwnedByOthersOrLinksAreRefused() throws {
        let base = try temporaryDirectory("state-refused", preferMemory: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let open = base + "/open"
        try FileManager.default.createDirectory(atPath: open, withIntermediateDirectories: false)
        chmod(open, 0o777)
        #expect(throws: PrivateFolder.Refusal.self) { try PrivateFolder.prepare(open) }
        // Below a folder others may write (not sticky), a private folder can still be swapped.
        #expect(throws: PrivateFolder.Refusal.self) { try PrivateFolder.prepare(open + "/inner") }

        let mine = base + "/mine"
        try FileManager.default.createDirectory(atPath: mine, withIntermediateDirectories: false)
        let someoneElse = geteuid() == 65534 ? 65533 : uid_t(65534)
        let refusal = #expect(throws: PrivateFolder.Refusal.self) { try PrivateFolder.prepare(mine, owner: someoneElse) }
        #expect(refusal?.message.contains("is owned by") == true, "\(String(describing: refusal))")

        let link = base + "/link"
        try FileManager.default.createSymbolicLink(atPath: link, withDestinationPath: mine)
        let linked = #expect(throws: PrivateFolder.Refusal.self) { try PrivateFolder.prepare(link) }
        #expect(linked?.message.contains("symbolic link") == true)
    }

    @Test func theLockIsNeverOpenedThroughALink() throws {
        let base = try temporaryDirectory("state-lock", preferMemory: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let victim = base + "/victim"
        try "precious\n".write(toFile: victim, atomically: false, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: base + "/daemon.lock", withDestinationPath: victim)
        #expect(throws: HistoryStoreError.self) { _ = try InstanceLock(path: base + "/daemon.lock") }
        #expect(try String(contentsOfFile: victim, encoding: .utf8) == "precious\n")
    }

    @Test func oneProjectHasOneDaemonWhateverItsStateFolder() throws {
        let base = try temporaryDirectory("state-two", preferMemory: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        for name in ["project", "one", "two"] {
            try FileManager.default.createDirectory(atPath: base + "/" + name, withIntermediateDirectories: false)
        }
        let locks = base + "/locks"
        let first = try InstanceLock(path: base + "/one/daemon.lock", projectDirectory: base + "/project", projectLocks: locks)
        let second = #expect(throws: HistoryStoreError.self) {
            _ = try InstanceLock(path: base + "/two/daemon.lock", projectDirectory: base + "/project", projectLocks: locks)
        }
        #expect(second?.message.contains("another lanes daemon (pid \(getpid())) already runs for the project") == true, "\(String(describing: second))")
        withExtendedLifetime(first) {}
    }

    /// Issue 31: the project's lock was a `flock` on the project folder, which any local user who
    /// can open the folder can take too, and then the owner's daemon refused to start. Now it is a
    /// lock file in a 0700 folder of the user's own.
    @Test func aLockOnTheProjectFolderItselfStopsNoDaemon() throws {
        let base = try temporaryDirectory("state-folder-lock", preferMemory: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        try FileManager.default.createDirectory(atPath: base + "/project", withIntermediateDirectories: false)
        try FileManager.default.createDirectory(atPath: base + "/state", withIntermediateDirectories: false)
        // What another user can do with a project folder they may read.
        let folder = open(base + "/project", O_RDONLY | O_DIRECTORY)
        try #require(folder >= 0)
        defer { close(folder) }
        try #require(flock(folder, LOCK_EX | LOCK_NB) == 0)
        let lock = try InstanceLock(path: base + "/state/daemon.lock", projectDirectory: base + "/project", projectLocks: base + "/locks")
        let mode = try #require(FileManager.default.attributesOfItem(atPath: base + "/locks")[.posixPermissions] as? Int)
        #expect(mode == 0o700, "mode \(String(mode, radix: 8))")
        withExtendedLifetime(lock) {}
    }

    /// Issue 31: `lanes history` as the first command made the state folders 0755 and the history
    /// 0644 (SQLite's default); its -wal and -shm files follow the database's mode.
    @Test func theFirstHistoryOpenedMakesItsFolders0700AndItsFiles0600() throws {
        let base = try temporaryDirectory("state-first", preferMemory: false)
        defer { try? FileManager.default.removeItem(atPath: base) }
        let state = base + "/a/b/state"
        let store = try HistoryStore(directory: state)
        _ = try store.runs()
        func mode(_ path: String) throws -> Int {
            try #require(FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int)
        }
        for folder in [base + "/a", base + "/a/b", state] {
            let found = try mode(folder)
            #expect(found == 0o700, "\(folder): \(String(found, radix: 8))")
        }
        let files = try FileManager.default.contentsOfDirectory(atPath: state).filter { $0.hasPrefix("history.sqlite") }
        #expect(files.contains("history.sqlite"), "\(files)")
        for file in files {
            let found = try mode(state + "/" + file)
            #expect(found == 0o600, "\(file): \(String(found, radix: 8))")
        }
        withExtendedLifetime(store) {}
    }
}
