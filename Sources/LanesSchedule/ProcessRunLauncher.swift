public import LanesPlatform

/// Starts a planned run as a child of `host`; its process id is also its process group.
public protocol RunLauncher {
    func start(_ run: PlannedRun, logPath: String, host: any Host) throws -> HostChild
}

/// Runs `lanes [--lanefile SNAPSHOT] LANE --project-dir PROJECT --run-folder FOLDER` in its own process
/// group, with standard output and error appended to the run's log file (mode 0600) in its run folder,
/// where the lane also writes `events.jsonl`, and standard input from
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

    public func arguments(for run: PlannedRun, runFolder: String) -> [String] {
        [lanesExecutable] + (lanefile.map { ["--lanefile", $0] } ?? [])
            + [run.lane, "--project-dir", projectDirectory, "--run-folder", runFolder]
    }

    public func start(_ run: PlannedRun, logPath: String, host: any Host) throws -> HostChild {
        try FilePath.makeDirectories(FilePath.directory(of: logPath), mode: 0o700)
        var variables = environment
        variables["LANES_RUN_ID"] = String(run.id)
        variables["LANES_RUN_TRIGGER"] = run.trigger.rawValue
        // Every process of the run carries this tag, so that the daemon (or its successor) can
        // end exactly those, even ones that left the process group.
        variables = ProcessTags.adding(RunProcessTag.tag(logPath: logPath), to: variables)
        // Own process group (ended as a whole), default signal handling and an empty mask: the
        // daemon handles the signals it reads, and a disposition or mask would be inherited.
        var child = ChildProcess(arguments(for: run, runFolder: FilePath.directory(of: logPath)), environment: variables)
        child.standardInput = .null
        child.standardOutput = .appending(path: logPath, mode: 0o600)
        child.standardError = .standardOutput
        do {
            return try host.launch(child)
        } catch {
            throw HistoryStoreError("cannot start \(lanesExecutable) for \(run.lane): \(error)")
        }
    }
}

/// The process tag of a daemon run (see `ProcessTags`): derived from its log file, which is unique
/// to the run and its state folder, so a restarted daemon finds the same tag for a run it recovers.
public enum RunProcessTag {
    public static func tag(logPath: String) -> String {
        // FNV-1a, 64 bits: a name, not a secret.
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in logPath.utf8 {
            hash ^= UInt64(byte)
            hash = hash &* 0x100_0000_01b3
        }
        let digits = String(hash, radix: 16)
        return "run" + String(repeating: "0", count: 16 - digits.count) + digits
    }
}
