#if canImport(Glibc)
public import LanesCron
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
    /// History writes that failed (full disk, read-only or locked database), retried in order
    /// before anything else; while any is left no new run starts (a run is recorded before it runs).
    private var pendingWrites: [(what: String, write: () throws(HistoryStoreError) -> Void)] = []
    private var writeRetryDelay: Double = 0

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
            if flushWrites() { startDueRuns() }
            var next = scheduler.nextWake()
            if writeRetryDelay > 0 {
                let retry = clock.now().adding(seconds: writeRetryDelay)
                if next.map({ $0.secondsSince1970 > retry.secondsSince1970 }) ?? true { next = retry }
            }
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

    /// Records `write` in the history now, or keeps it for a retry when the history cannot be written.
    private func record(_ what: String, _ write: @escaping () throws(HistoryStoreError) -> Void) {
        pendingWrites.append((what, write))
        flushWrites()
    }

    /// Retries the writes that failed, oldest first; true when none is left. The daemon keeps
    /// scheduling (and reaping) meanwhile, and says so on every failed retry.
    @discardableResult
    private func flushWrites() -> Bool {
        while let first = pendingWrites.first {
            do { try first.write() } catch {
                writeFailed(error, while: first.what)
                return false
            }
            pendingWrites.removeFirst()
        }
        if writeRetryDelay > 0 { report("the run history can be written again; every delayed record is written") }
        writeRetryDelay = 0
        return true
    }

    private func writeFailed(_ error: HistoryStoreError, while what: String) {
        writeRetryDelay = min(max(writeRetryDelay * 2, 1), 60)
        report("ERROR: cannot write the run history (\(error)) while \(what); \(pendingWrites.count) record(s) kept, no new run starts until it works; retrying in \(Int(writeRetryDelay)) s")
    }

    private func startDueRuns() {
        var started: [StartedRun] = []
        let due: [PlannedRun]
        do { due = try scheduler.takeDueRuns() } catch {
            // Nothing was recorded, so nothing starts: the due runs are decided on the retry.
            writeFailed(error, while: "recording due runs")
            return
        }
        for planned in due {
            let logPath = "\(logDirectory)/\(planned.id).log"
            let pid: Int32
            do {
                pid = try launcher.start(planned, logPath: logPath)
            } catch {
                let note = "could not start: \(error)"
                record("recording run \(planned.id) failed to start") { [store, clock] () throws(HistoryStoreError) in
                    try store.finish(id: planned.id, status: .failed, exitStatus: nil, ended: clock.now(), note: note)
                }
                report("run \(planned.id): \(planned.lane) could not start: \(error)")
                continue
            }
            running[pid] = planned.id
            started.append(StartedRun(id: planned.id, processID: pid, started: clock.now(), logPath: logPath))
            report("started run \(planned.id): \(planned.lane) (\(planned.trigger.rawValue), due \(planned.scheduled)), pid \(pid)")
        }
        // Recorded together after the spawns (one sync to disk); a crash before this leaves them
        // `starting`, which the next daemon records interrupted, never rerun.
        if !started.isEmpty {
            record("recording \(started.count) run(s) started") { [store] () throws(HistoryStoreError) in try store.markRunning(started) }
        }
    }

    private func reapChildren() throws {
        var status: Int32 = 0
        while true {
            let pid = waitpid(-1, &status, WNOHANG)
            guard pid > 0 else { return }
            guard let id = running.removeValue(forKey: pid) else { continue }
            let (code, note) = Self.describe(status)
            let ended = clock.now()
            record("recording how run \(id) ended") { [store] () throws(HistoryStoreError) in
                try store.finish(id: id, status: code == 0 ? .succeeded : .failed, exitStatus: code, ended: ended, note: note)
            }
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
            report("ERROR: Lanefile changed but the run history cannot be read (\(error)); keeping the previous version")
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
                    let code = Self.describe(status).code
                    let ended = clock.now()
                    record("recording run \(id) cancelled") { [store] () throws(HistoryStoreError) in
                        try store.finish(id: id, status: .cancelled, exitStatus: code, ended: ended, note: "stopped by the daemon's shutdown")
                    }
                }
            }
            let remaining = deadline.secondsSince1970 - clock.now().secondsSince1970
            guard !running.isEmpty, remaining > 0 else { break }
            _ = events.next(timeoutMilliseconds: Int32(min(remaining * 1000, 60_000).rounded(.up)))
        }
        for (pid, id) in running {
            kill(-pid, SIGKILL)
            waitpid(pid, &status, 0)
            let ended = clock.now()
            let note = "killed after the \(Int(graceSeconds)) s grace period of the daemon's shutdown"
            record("recording run \(id) cancelled") { [store] () throws(HistoryStoreError) in
                try store.finish(id: id, status: .cancelled, exitStatus: nil, ended: ended, note: note)
            }
        }
        running.removeAll()
        if !flushWrites() {
            report("ERROR: stopping with \(pendingWrites.count) history record(s) unwritten; the next daemon records those runs interrupted")
        }
    }

    /// Exit code, or a note naming the signal that ended the child.
    static func describe(_ status: Int32) -> (code: Int32?, note: String?) {
        if status & 0x7F == 0 { return ((status >> 8) & 0xFF, nil) }
        return (nil, "ended by signal \(status & 0x7F)")
    }
}
#endif
