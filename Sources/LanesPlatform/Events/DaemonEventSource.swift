/// What wakes the daemon.
public enum DaemonEvent: Equatable, Sendable {
    /// The instant set with `wake(at:)` has come (or the wall clock was set: plan again).
    case due
    case stop(signal: Int32)
    case childExited
    case lanefileChanged
}

/// The daemon's one blocking wait: a timer set to the next due instant (wall clock), the signals it
/// handles (SIGINT, SIGTERM, SIGHUP, SIGCHLD) and changes to the Lanefile. Three backends: Linux
/// (timerfd, signalfd, inotify), Darwin (kqueue) and portable POSIX (poll, a self-pipe, computed
/// timeouts and a stat check), chosen by `DaemonEventBackend.open`.
public protocol DaemonEventSource: AnyObject {
    /// The backend's name, for the daemon's first log line.
    var backendName: String { get }
    /// Wake-ups, for the benchmark.
    var wakeUps: Int { get }
    /// Sets the timer to fire at `secondsSince1970` (wall clock); nil disarms it.
    func wake(at secondsSince1970: Double?)
    /// Sleeps until something happens (or `timeoutMilliseconds` pass: -1 waits forever) and returns
    /// what happened; empty after a timeout.
    func next(timeoutMilliseconds: Int32) -> [DaemonEvent]
}

extension DaemonEventSource {
    public func next() -> [DaemonEvent] { next(timeoutMilliseconds: -1) }
}

/// Picks the event backend: `LANES_EVENT_BACKEND=portable` forces the POSIX one; otherwise the
/// OS's own (`nativeBackend`, one file per OS).
public enum DaemonEventBackend {
    public static let variable = "LANES_EVENT_BACKEND"

    /// Opens the backend; call before other threads start (it sets the signal mask or handlers).
    public static func open(lanefile: String?, environment: [String: String]) throws(InstallationError) -> any DaemonEventSource {
        switch environment[variable] ?? "" {
        case "portable": return try PortableEvents(lanefile: lanefile)
        case "", "native": return try nativeBackend(lanefile: lanefile)
        case let other:
            throw InstallationError("\(variable)=\(other) is not an event backend", hint: "use `portable` or `native`, or unset it")
        }
    }
}

/// What identifies a file's content cheaply: device, inode, size and modification time. A save by
/// rename changes the inode; an edit in place the size or time.
struct FileSignature: Equatable {
    let values: [Int]

    init(path: String) {
        var info = stat()
        guard stat(path, &info) == 0 else { values = []; return }
        let time = FileTimes.modification(of: info)
        values = [Int(info.st_dev), Int(info.st_ino), Int(info.st_size), Int(time.tv_sec), Int(time.tv_nsec)]
    }
}
