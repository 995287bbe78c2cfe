#if canImport(Glibc)
public import LanesCron
import LanesPlatform
import Glibc

/// `lanes daemon`'s loop: sleeps until the next due instant (or a signal, a child's exit or a
/// Lanefile change), starts due runs through a `RunLauncher`, records how they end, and on SIGTERM
/// or SIGINT stops scheduling, gives running lanes `graceSeconds`, then kills their process groups
/// and records them cancelled.
public final class Daemon {
    /// What the daemon runs: the lanes and how to start them. Called at start and after each
    /// Lanefile change; a throw (a compile error) keeps the previous lanes and launcher.
    public typealias Loader = () throws -> (lanes: [ScheduledLane], launcher: any RunLauncher)

    public let store: HistoryStore
    public let logDirectory: String
    public var graceSeconds: Double = 30
    private let clock: any CronClock
    private let defaultZone: any CronTimeZone
    private let policy: SchedulePolicy
    private let poller: (any ChangePoller)?
    private let events: DaemonEvents
    private let load: Loader
    private let report: (String) -> Void
    private var scheduler: Scheduler
    private var launcher: any RunLauncher
    /// Running children: process id (= process group) to run id.
    private var running: [Int32: Int64] = [:]
    /// Each running run's folder, whose `events.jsonl` gives its steps when it ends.
    private var runFolders: [Int64: String] = [:]

    public init(store: HistoryStore, logDirectory: String, clock: any CronClock, defaultZone: any CronTimeZone,
                policy: SchedulePolicy = SchedulePolicy(), poller: (any ChangePoller)?, events: DaemonEvents,
                load: @escaping Loader, report: @escaping (String) -> Void) throws {
        self.store = store
        self.logDirectory = logDirectory
        self.clock = clock
        self.defaultZone = defaultZone
        self.policy = policy
        self.poller = poller
        self.events = events
        self.load = load
        self.report = report
        let loaded = try load()
        launcher = loaded.launcher
        scheduler = try Scheduler(lanes: loaded.lanes, store: store, clock: clock, defaultZone: defaultZone, policy: policy, poller: poller)
    }

    /// Runs until SIGTERM or SIGINT; returns after every child has ended and been recorded.
    public func run() throws {
        for run in try scheduler.recoverInterruptedRuns() {
            report("run \(run.id) (\(run.lane)) was \(run.status.rawValue) when the previous daemon stopped: recorded interrupted")
            if let group = run.processID, kill(-group, 0) == 0 { kill(-group, SIGKILL) }
        }
        report("scheduling \(scheduler.lanes.count) lane(s); state in \(store.path)")
        while true {
            try startDueRuns()
            let next = scheduler.nextWake()
            events.wake(at: next?.secondsSince1970)
            for event in events.next() {
                switch event {
                case .due: break  // decided at the top of the loop
                case .childExited: try reapChildren()
                case .lanefileChanged: try reload()
                case .stop(let signal):
                    report("received signal \(signal): stopping; \(running.count) run(s) get \(Int(graceSeconds)) s to finish")
                    try shutDown()
                    return
                }
            }
        }
    }

    private func startDueRuns() throws {
        var started: [StartedRun] = []
        let due = try scheduler.takeDueRuns()
        for trace in scheduler.pollTraces { report(trace) }
        for planned in due {
            // One folder per run: the terminal output and the lane's events (`--run-folder`).
            let logPath = "\(logDirectory)/\(planned.id)/\(ProjectState.outputFileName)"
            let pid: Int32
            do {
                pid = try launcher.start(planned, logPath: logPath)
            } catch {
                try store.finish(id: planned.id, status: .failed, exitStatus: nil, ended: clock.now(), note: "could not start: \(error)")
                report("run \(planned.id): \(planned.lane) could not start: \(error)")
                continue
            }
            running[pid] = planned.id
            runFolders[planned.id] = FilePath.directory(of: logPath)
            started.append(StartedRun(id: planned.id, processID: pid, started: clock.now(), logPath: logPath,
                                      folder: FilePath.directory(of: logPath)))
            report("started run \(planned.id): \(planned.lane) (\(planned.trigger.rawValue), due \(planned.scheduled)), pid \(pid)")
        }
        // Recorded together after the spawns (one sync to disk); a crash before this leaves them
        // `starting`, which the next daemon records interrupted, never rerun.
        try store.markRunning(started)
    }

    private func reapChildren() throws {
        var status: Int32 = 0
        while true {
            let pid = waitpid(-1, &status, WNOHANG)
            guard pid > 0 else { return }
            guard let id = running.removeValue(forKey: pid) else { continue }
            let (code, note) = Self.describe(status)
            try recordEvents(of: id)
            try store.finish(id: id, status: code == 0 ? .succeeded : .failed, exitStatus: code, ended: clock.now(), note: note)
            report("run \(id) ended: \(code == 0 ? "succeeded" : "failed (\(note ?? "exit \(code ?? -1)"))")")
        }
    }

    private func reload() throws {
        do {
            let loaded = try load()
            launcher = loaded.launcher
            scheduler = try Scheduler(lanes: loaded.lanes, store: store, clock: clock, defaultZone: defaultZone, policy: policy, poller: poller)
            report("Lanefile changed: now scheduling \(loaded.lanes.count) lane(s)")
        } catch let error as HistoryStoreError {
            throw error
        } catch {
            report("Lanefile changed but cannot be used; keeping the previous version: \(error)")
        }
    }

    private func shutDown() throws {
        events.wake(at: nil)
        for pid in running.keys { kill(-pid, SIGTERM) }
        let deadline = clock.now().adding(seconds: graceSeconds)
        var status: Int32 = 0
        while !running.isEmpty {
            while let pid = Optional(waitpid(-1, &status, WNOHANG)), pid > 0 {
                if let id = running.removeValue(forKey: pid) {
                    try recordEvents(of: id)
                    try store.finish(id: id, status: .cancelled, exitStatus: Self.describe(status).code, ended: clock.now(),
                                     note: "stopped by the daemon's shutdown")
                }
            }
            let remaining = deadline.secondsSince1970 - clock.now().secondsSince1970
            guard !running.isEmpty, remaining > 0 else { break }
            _ = events.next(timeoutMilliseconds: Int32(min(remaining * 1000, 60_000).rounded(.up)))
        }
        for (pid, id) in running {
            kill(-pid, SIGKILL)
            waitpid(pid, &status, 0)
            try recordEvents(of: id)
            try store.finish(id: id, status: .cancelled, exitStatus: nil, ended: clock.now(),
                             note: "killed after the \(Int(graceSeconds)) s grace period of the daemon's shutdown")
        }
        running.removeAll()
    }

    /// Stores the steps (and commit, version, artifacts) of an ended run from its events file; a run
    /// killed before it wrote any keeps none.
    private func recordEvents(of id: Int64) throws {
        guard let folder = runFolders.removeValue(forKey: id) else { return }
        try store.recordEvents(id: id, folder: folder)
    }

    /// Exit code, or a note naming the signal that ended the child.
    static func describe(_ status: Int32) -> (code: Int32?, note: String?) {
        if status & 0x7F == 0 { return ((status >> 8) & 0xFF, nil) }
        return (nil, "ended by signal \(status & 0x7F)")
    }
}
#endif
