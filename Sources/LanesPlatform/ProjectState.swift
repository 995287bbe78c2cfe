#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where a project's state lives, shared by the runner (which writes each run's events there) and
/// `lanes-tool` (the history database, the daemon): `$LANES_STATE_DIR`, else
/// `$XDG_STATE_HOME/lanes/<project-key>`, else the OS's state folder (`~/.local/state`,
/// `~/Library/Application Support` on macOS: `UserFolders`) + `/lanes/<project-key>`. The key is the
/// project folder's name and a hash of its real path, so two checkouts never share a history.
public enum ProjectState {
    /// Run folders (`<run>/events.jsonl`, and for daemon runs `<run>/output.log`) live here.
    public static let runsFolderName = "logs"
    /// Each run's `--json` events, one object a line.
    public static let eventsFileName = "events.jsonl"
    /// A daemon run's terminal output.
    public static let outputFileName = "output.log"
    /// Folders of runs started outside the daemon begin with this; the history indexes them lazily.
    public static let outsideRunPrefix = "run-"

    /// Nil when neither `LANES_STATE_DIR`, `XDG_STATE_HOME`, `HOME` nor the password database gives a
    /// folder: never a shared folder such as `/tmp`, where another user could plant the state.
    public static func directory(projectDirectory: String, environment: [String: String]) -> String? {
        if let directory = environment["LANES_STATE_DIR"], !directory.isEmpty { return directory }
        let base: String
        if let state = environment["XDG_STATE_HOME"], state.hasPrefix("/") {
            base = state
        } else if let home = PrivateFolder.home(environment: environment) {
            base = UserFolders.stateBase(environment: [:], home: home)
        } else {
            return nil
        }
        return "\(base)/lanes/\(projectKey(projectDirectory))"
    }

    /// `<folder name>-<16 hex digits of FNV-1a over the real path>`.
    public static func projectKey(_ projectDirectory: String) -> String {
        let path = FilePath.realPath(projectDirectory) ?? projectDirectory
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in path.utf8 { hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3 }
        let hex = String(hash, radix: 16)
        return FilePath.name(of: path) + "-" + String(repeating: "0", count: 16 - hex.count) + hex
    }

    /// The folder name of a run started outside the daemon: sortable by start time, unique by process.
    public static func outsideRunFolderName(startedMilliseconds: Int64, processID: Int32) -> String {
        let millis = String(startedMilliseconds)
        return outsideRunPrefix + String(repeating: "0", count: max(0, 15 - millis.count)) + millis + "-" + String(processID)
    }

    /// The process id in an outside run's folder name, to tell a running run from one that died.
    public static func processID(ofOutsideRunFolder name: String) -> Int32? {
        guard name.hasPrefix(outsideRunPrefix), let dash = name.lastIndex(of: "-") else { return nil }
        return Int32(name[name.index(after: dash)...])
    }

    /// This process's id, for the name of its run folder.
    public static var currentProcessID: Int32 { getpid() }

    /// Whether a process with this id exists (a run folder's process still running).
    public static func isProcessAlive(_ processID: Int32) -> Bool {
        kill(processID, 0) == 0 || errno == EPERM
    }

    /// Opens a run's events file for appending (created with mode 0600, closed on exec): the
    /// descriptor, or why it cannot be opened.
    public static func openEventsFile(_ path: String) -> Result<Int32, EventsFileError> {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { return .failure(EventsFileError(description: String(cString: strerror(errno)))) }
        return .success(descriptor)
    }

    public struct EventsFileError: Error, CustomStringConvertible {
        public let description: String
    }
}
