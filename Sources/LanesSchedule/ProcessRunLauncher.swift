import LanesPlatform
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Starts a planned run as a child process; returns its process id, which is also its process group.
public protocol RunLauncher {
    func start(_ run: PlannedRun, logPath: String) throws -> Int32
}

/// Runs `lanes [--lanefile SNAPSHOT] LANE --project-dir PROJECT` in its own process group, with
/// standard output and error appended to the run's log file (mode 0600) and standard input from
/// /dev/null. The compiled Lanefile redacts its secrets before they reach its output, so the log
/// holds only redacted text. The child gets `LANES_RUN_ID` and `LANES_RUN_TRIGGER`.
public struct ProcessRunLauncher: RunLauncher {
    /// The `lanes` driver.
    public let lanesExecutable: String
    public let projectDirectory: String
    /// The Lanefile to run (the daemon's snapshot of the last version that compiled); nil: the driver finds it.
    public var lanefile: String?
    public let environment: [String: String]

    public init(lanesExecutable: String, projectDirectory: String, lanefile: String?, environment: [String: String]) {
        self.lanesExecutable = lanesExecutable
        self.projectDirectory = projectDirectory
        self.lanefile = lanefile
        self.environment = environment
    }

    public func arguments(for run: PlannedRun) -> [String] {
        [lanesExecutable] + (lanefile.map { ["--lanefile", $0] } ?? []) + [run.lane, "--project-dir", projectDirectory]
    }

    public func start(_ run: PlannedRun, logPath: String) throws -> Int32 {
        try FilePath.makeDirectories(FilePath.directory(of: logPath))
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, logPath, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, 0o600)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)

        var attributes = posix_spawnattr_t()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        // Own process group (ended as a whole), default signal handling and an empty mask: the
        // daemon blocks the signals it reads through signalfd, and a mask is inherited.
        var empty = sigset_t()
        sigemptyset(&empty)
        var defaults = sigset_t()
        sigemptyset(&defaults)
        for number in [SIGINT, SIGTERM, SIGCHLD, SIGHUP, SIGPIPE] { sigaddset(&defaults, number) }
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &defaults)
        posix_spawnattr_setpgroup(&attributes, 0)
        posix_spawnattr_setflags(&attributes, Int16(POSIX_SPAWN_SETPGROUP | POSIX_SPAWN_SETSIGMASK | POSIX_SPAWN_SETSIGDEF))

        var variables = environment
        variables["LANES_RUN_ID"] = String(run.id)
        variables["LANES_RUN_TRIGGER"] = run.trigger.rawValue
        let argv = arguments(for: run).map { strdup($0) } + [nil]
        let envp = variables.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer {
            argv.forEach { free($0) }
            envp.forEach { free($0) }
        }
        var pid: pid_t = 0
        let code = posix_spawn(&pid, lanesExecutable, &actions, &attributes, argv, envp)
        guard code == 0 else {
            throw HistoryStoreError("cannot start \(lanesExecutable) for \(run.lane): \(String(cString: strerror(code)))")
        }
        return pid
    }
}
