public import LanesCron
public import LanesPlatform
import Synchronization

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
    /// How long a Poll SCM check may take; then it is recorded as failed and its fetch told to stop.
    public var pollDeadline: Double = 60
    private let clock: any CronClock
    private let defaultZone: any CronTimeZone
    private let policy: SchedulePolicy
    private let poller: (any ChangePoller)?
    private let events: any DaemonEventSource
    private let load: Loader
    private let report: (String) -> Void
    private var scheduler: Scheduler
    private var launcher: any RunLauncher
    /// Running children: process id (= process group) to run id.
    private var running: [Int32: Int64] = [:]
    /// Runs this daemon started and has not reaped: process group to the tag its processes carry.
    private var tags: [Int32: String] = [:]
    /// Poll SCM checks running on workers, off this loop.
    private let polls = PollWorkers()
    /// Each running run's folder, whose `events.jsonl` gives its steps when it ends.
    private var runFolders: [Int64: String] = [:]
    /// History writes that failed (full disk, read-only or locked database), retried in order
    /// before anything else; while any is left no new run starts (a run is recorded before it runs).
    private var pendingWrites: [(what: String, write: () throws(HistoryStoreError) -> Void)] = []
    /// While the history cannot be written: when to try again, and the pause that doubles after
    /// each failed try (1 s up to 60 s). Said once when it starts and once when it ends.
    private var historyRetry: (at: Double, delay: Double)?

    public init(store: HistoryStore, logDirectory: String, clock: any CronClock, defaultZone: any CronTimeZone,
                policy: SchedulePolicy = SchedulePolicy(), poller: (any ChangePoller)?, events: any DaemonEventSource,
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
        report("event backend: \(events.backendName)")
        for run in try scheduler.recoverInterruptedRuns() {
            report("run \(run.id) (\(run.lane)) was \(run.status.rawValue) when the previous daemon stopped: recorded interrupted")
            endLeftovers(of: run.id, recordedGroup: run.processID)
        }
        report("scheduling \(scheduler.lanes.count) lane(s); state in \(store.path)")
        while true {
            // A run is recorded before it starts: while the history cannot be written, nothing
            // starts, and the write is tried again only when its pause is over.
            if historyRetry.map({ clock.now().secondsSince1970 >= $0.at }) ?? true, flushWrites() {
                startDueRuns()
                startPolls()
                collectPolls()
            }
            let pollWake = polls.earliestStart.map { $0 + pollDeadline }
            // Due runs wait for the history: while it fails, the retry (not a due instant already
            // past) is what wakes the loop.
            let next = historyRetry.map { retry in [retry.at, pollWake].compactMap { $0 }.min() }
                ?? [scheduler.nextWake()?.secondsSince1970, pollWake].compactMap { $0 }.min()
            events.wake(at: next)
            for event in events.next() {
                switch event {
                case .due: break  // decided at the top of the loop
                case .childExited: reapChildren()  // finished polls are collected at the top
                case .lanefileChanged: reload()
                case .stop(let signal):
                    report("received signal \(signal): stopping; \(running.count) run(s) get \(Int(graceSeconds)) s to finish")
                    shutDown()
                    return
                }
            }
        }
    }

    /// Records `write` in the history now, or keeps it for a retry when the history cannot be written
    /// (then it waits for the retry, in order, with the writes before it).
    private func record(_ what: String, _ write: @escaping () throws(HistoryStoreError) -> Void) {
        pendingWrites.append((what, write))
        if historyRetry == nil { flushWrites() }
    }

    /// Retries the writes that failed, oldest first; true when none is left. The daemon keeps
    /// reaping meanwhile.
    @discardableResult
    private func flushWrites() -> Bool {
        var wrote = false
        while let first = pendingWrites.first {
            do { try first.write() } catch {
                writeFailed(error, while: first.what)
                return false
            }
            pendingWrites.removeFirst()
            wrote = true
        }
        if wrote { historyWritten() }
        return true
    }

    /// A write worked: if the history was failing, it is said once that it works again.
    private func historyWritten() {
        guard historyRetry != nil else { return }
        historyRetry = nil
        report("the run history can be written again; every delayed record is written")
    }

    /// Says once that the history cannot be written (not on every retry: a read-only or full
    /// disk would otherwise fill the log), and backs off: 1 s, 2 s, 4 s... up to 60 s between tries.
    private func writeFailed(_ error: HistoryStoreError, while what: String) {
        let delay = historyRetry.map { min($0.delay * 2, 60) } ?? 1
        if historyRetry == nil {
            report("ERROR: cannot write the run history (\(error)) while \(what); \(pendingWrites.count) record(s) kept, no new run starts until it works; retrying, less and less often (up to every 60 s), and saying when it works again")
        }
        historyRetry = (clock.now().secondsSince1970 + delay, delay)
    }

    private func startDueRuns() {
        do throws(HistoryStoreError) {
            let due = try scheduler.takeDueRuns()
            historyWritten()
            start(due)
        } catch {
            // Nothing was recorded, so nothing starts: the due runs are decided on the retry.
            writeFailed(error, while: "recording due runs")
        }
    }

    private func start(_ runs: [PlannedRun]) {
        guard !runs.isEmpty else { return }
        var started: [StartedRun] = []
        for planned in runs {
            // One folder per run: the terminal output and the lane's events (`--run-folder`).
            let logPath = "\(logDirectory)/\(planned.id)/\(ProjectState.outputFileName)"
            let pid: Int32
            do {
                pid = try launcher.start(planned, logPath: logPath)
            } catch {
                let note = "could not start: \(error)", ended = clock.now()
                record("recording run \(planned.id) failed to start") { [store] () throws(HistoryStoreError) in
                    try store.finish(id: planned.id, status: .failed, exitStatus: nil, ended: ended, note: note)
                }
                report("run \(planned.id): \(planned.lane) could not start: \(error)")
                continue
            }
            running[pid] = planned.id
            tags[pid] = RunProcessTag.tag(logPath: logPath)
            runFolders[planned.id] = FilePath.directory(of: logPath)
            started.append(StartedRun(id: planned.id, processID: pid, started: clock.now(), logPath: logPath,
                                      folder: FilePath.directory(of: logPath)))
            report("started run \(planned.id): \(planned.lane) (\(planned.trigger.rawValue), due \(planned.scheduled)), pid \(pid)")
        }
        // Recorded together after the spawns (one sync to disk); a crash before this leaves them
        // `starting`, which the next daemon records interrupted, never rerun.
        if !started.isEmpty {
            record("recording \(started.count) run(s) started") { [store] () throws(HistoryStoreError) in try store.markRunning(started) }
        }
    }

    /// Starts the Poll SCM checks that came due, each on a worker thread: a remote that hangs
    /// delays nothing else. A worker that finishes rings the loop's SIGCHLD doorbell (the wake the
    /// loop already has for work that ends elsewhere).
    private func startPolls() {
        let requests = scheduler.takePollRequests()
        guard !requests.isEmpty else { return }
        guard let poller else { return }
        let now = clock.now().secondsSince1970
        for request in requests {
            guard let stop = polls.begin(request, at: now) else {
                _ = try? scheduler.finishPoll(request, outcome: .failure(PollProblem("the previous poll of \(request.lane) is still running")))
                continue
            }
            let polls = self.polls
            DetachedThread.start {
                let outcome = Result { try poller.poll(lane: request.lane, since: request.lastBuilt, shouldStop: { stop.isSet }) }
                polls.end(request, outcome: outcome)
                kill(getpid(), SIGCHLD)
            }
        }
    }

    /// Records finished polls (starting the runs they call for) and those past their deadline.
    private func collectPolls() {
        let (finished, expired) = polls.collect(now: clock.now().secondsSince1970, deadline: pollDeadline)
        var runs: [PlannedRun] = []
        do throws(HistoryStoreError) {
            for (request, outcome) in finished { runs += try scheduler.finishPoll(request, outcome: outcome) }
            for request in expired {
                report("poll of \(request.lane) took longer than \(Int(pollDeadline)) s: recorded failed")
                runs += try scheduler.finishPoll(request, outcome: .failure(PollProblem("no answer within \(Int(pollDeadline)) s")))
            }
        } catch {
            // The check is made again at its next due time.
            writeFailed(error, while: "recording Poll SCM checks")
        }
        for trace in scheduler.takePollTraces() { report(trace) }
        start(runs)
    }

    /// What a previous daemon's run left running: only processes that carry the run's tag (a
    /// process id alone may belong to someone else after a crash or a reboot), and the recorded
    /// group only when its leader is one of them.
    private func endLeftovers(of id: Int64, recordedGroup: Int32?) {
        let tag = RunProcessTag.tag(logPath: "\(logDirectory)/\(id)/\(ProjectState.outputFileName)")
        let tagged = ProcessTags.processes(carrying: tag)
        guard !tagged.isEmpty else { return }
        let groups = recordedGroup.map { tagged.contains($0) ? [$0] : [] } ?? []
        report("run \(id) left \(tagged.count) process(es) running: ending them")
        ProcessGroup.end(groups: groups, tagged: { ProcessTags.processes(carrying: tag) }, grace: 0)
    }

    private func reapChildren() {
        while let (pid, status) = ChildProcess.reapAnyEnded() {
            guard let id = running.removeValue(forKey: pid) else { continue }
            tags[pid] = nil  // a runner that ended by itself ended what its steps left
            let (code, note) = Self.describe(status)
            recordEnd(of: id, status: code == 0 ? .succeeded : .failed, exitStatus: code, note: note)
            report("run \(id) ended: \(code == 0 ? "succeeded" : "failed (\(note ?? "exit \(code ?? -1)"))")")
        }
    }

    /// Records an ended run: its steps (and commit, version, artifacts) from its events file, then how
    /// it ended; each retried on its own while the history cannot be written.
    private func recordEnd(of id: Int64, status: RunStatus, exitStatus: Int32?, note: String?) {
        let ended = clock.now()
        if let folder = runFolders.removeValue(forKey: id) {
            record("recording the steps of run \(id)") { [store] () throws(HistoryStoreError) in try store.recordEvents(id: id, folder: folder) }
        }
        record("recording how run \(id) ended") { [store] () throws(HistoryStoreError) in
            try store.finish(id: id, status: status, exitStatus: exitStatus, ended: ended, note: note)
        }
    }

    private func reload() {
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

    private func shutDown() {
        events.wake(at: nil)
        let stopping = tags.filter { running[$0.key] != nil }
        for pid in running.keys { kill(-pid, SIGTERM) }
        let deadline = clock.now().adding(seconds: graceSeconds)
        while !running.isEmpty {
            while let (pid, status) = ChildProcess.reapAnyEnded() {
                if let id = running.removeValue(forKey: pid) {
                    recordEnd(of: id, status: .cancelled, exitStatus: status.exitCode, note: "stopped by the daemon's shutdown")
                }
            }
            let remaining = deadline.secondsSince1970 - clock.now().secondsSince1970
            guard !running.isEmpty, remaining > 0 else { break }
            _ = events.next(timeoutMilliseconds: Int32(min(remaining * 1000, 60_000).rounded(.up)))
        }
        for (pid, id) in running {
            kill(-pid, SIGKILL)
            _ = ChildProcess.wait(pid)
            recordEnd(of: id, status: .cancelled, exitStatus: nil,
                      note: "killed after the \(Int(graceSeconds)) s grace period of the daemon's shutdown")
        }
        running.removeAll()
        // Whatever the runs left behind, whether or not their runner exited in time: group
        // members that ignored SIGTERM, and processes that left the group (setsid).
        // By tag only: a reaped runner's group id is free for a stranger once the group is empty.
        for tag in stopping.values where !ProcessTags.processes(carrying: tag).isEmpty {
            ProcessGroup.end(groups: [], tagged: { ProcessTags.processes(carrying: tag) }, grace: 0)
        }
        if !flushWrites() {
            report("ERROR: stopping with \(pendingWrites.count) history record(s) unwritten; the next daemon records those runs interrupted")
        }
    }

    /// Exit code, or a note naming the signal that ended the child.
    static func describe(_ status: WaitStatus) -> (code: Int32?, note: String?) {
        switch status {
        case .exited(let code): (code, nil)
        case .signaled(let signal): (nil, "ended by signal \(signal)")
        }
    }
}

/// Poll SCM checks on workers: at most one per lane, each with its start time and a stop flag its
/// fetch reads; outcomes wait here until the loop collects them.
final class PollWorkers: Sendable {
    /// Set when a poll's deadline passed; its fetch reads it.
    final class Stop: Sendable {
        private let flag = Atomic(false)
        func set() { flag.store(true, ordering: .relaxed) }
        var isSet: Bool { flag.load(ordering: .relaxed) }
    }

    private struct Running {
        let request: PollRequest
        let started: Double
        let stop: Stop
    }

    private let state = Mutex<(running: [String: Running], finished: [(PollRequest, Result<SourceState, any Error>)])>(([:], []))

    /// Marks `request` running; its stop flag, or nil when the lane's previous poll still runs.
    func begin(_ request: PollRequest, at now: Double) -> Stop? {
        state.withLock { state in
            guard state.running[request.lane] == nil else { return nil }
            let stop = Stop()
            state.running[request.lane] = Running(request: request, started: now, stop: stop)
            return stop
        }
    }

    var earliestStart: Double? { state.withLock { $0.running.values.map(\.started).min() } }

    func end(_ request: PollRequest, outcome: Result<SourceState, any Error>) {
        state.withLock { state in
            // A poll already recorded as expired is not recorded twice.
            guard state.running[request.lane]?.request == request else { return }
            state.running[request.lane] = nil
            state.finished.append((request, outcome))
        }
    }

    /// The finished polls, and the running ones past `deadline` (told to stop, then forgotten).
    func collect(now: Double, deadline: Double) -> (finished: [(PollRequest, Result<SourceState, any Error>)], expired: [PollRequest]) {
        state.withLock { state in
            let finished = state.finished
            state.finished.removeAll()
            var expired: [PollRequest] = []
            for (lane, running) in state.running where now - running.started >= deadline {
                running.stop.set()
                expired.append(running.request)
                state.running[lane] = nil
            }
            return (finished, expired)
        }
    }
}

/// Why a poll produced no answer.
struct PollProblem: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

/// A thread nobody joins, running `body` (inline when no thread can be started).
enum DetachedThread {
    static func start(_ body: @escaping @Sendable () -> Void) {
        do { try PlatformThread.detach(body) } catch { body() }
    }
}
