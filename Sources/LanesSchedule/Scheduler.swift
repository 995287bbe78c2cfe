public import LanesCron

/// A lane as the scheduler sees it: its parsed timer and poll-SCM schedules (`H` already resolved
/// from the lane's seed).
public struct ScheduledLane: Sendable {
    public let name: String
    public let timers: [CronSchedule]
    public let polls: [CronSchedule]

    public init(name: String, timers: [CronSchedule], polls: [CronSchedule] = []) {
        self.name = name
        self.timers = timers
        self.polls = polls
    }
}

/// The tracked branch as a poll saw it.
public struct SourceState: Sendable, Hashable {
    public let commit: String
    /// Whether it moved since the commit the lane last ran for.
    public let moved: Bool

    public init(commit: String, moved: Bool) {
        self.commit = commit
        self.moved = moved
    }
}

/// Tells whether a lane's tracked branch moved (the daemon wraps LanesGit's `RemotePoller`).
/// It is called off the daemon's loop, on a worker; `shouldStop` turns true when its deadline
/// passed, and a network transfer should then give up.
public protocol ChangePoller: Sendable {
    func poll(lane: String, since lastBuilt: String?, shouldStop: @escaping @Sendable () -> Bool) throws -> SourceState
}

/// A Poll SCM check that came due: the caller runs it off its loop (the network may hang) and
/// hands the outcome to `Scheduler.finishPoll`.
public struct PollRequest: Sendable, Hashable {
    public let lane: String
    public let scheduled: CronInstant
    /// `scm`, or `catch-up` when it came due long ago.
    public let trigger: RunTrigger
    /// The commit the lane last ran for, when any.
    public let lastBuilt: String?
}

/// How the scheduler treats late and missed runs.
public struct SchedulePolicy: Sendable, Hashable {
    /// A run missed while the daemon was down runs once at start when it is at most this old (seconds).
    public var catchUpWindow: Double = 24 * 60 * 60
    /// A run started more than this after its due instant counts as a catch-up (seconds).
    public var onTimeTolerance: Double = 60
    /// At most this many older misses per lane are recorded one by one after a long downtime.
    public var recordedMissesLimit = 1_000

    public init(catchUpWindow: Double = 24 * 60 * 60, onTimeTolerance: Double = 60) {
        self.catchUpWindow = catchUpWindow
        self.onTimeTolerance = onTimeTolerance
    }
}

/// A run the scheduler has recorded as `starting`: the caller starts it, then calls
/// `HistoryStore.markRunning` (or `finish` when it could not start).
public struct PlannedRun: Sendable, Hashable {
    public let id: Int64
    public let lane: String
    public let trigger: RunTrigger
    public let scheduled: CronInstant
    public let commit: String?
}

/// The scheduling core, free of processes and real time: on each wake it decides every due instant
/// of every lane (run, skip or miss), records the decisions before anything starts, and says when to
/// wake next. Real time, processes and git come in through `CronClock`, the caller and `ChangePoller`.
public final class Scheduler {
    public let lanes: [ScheduledLane]
    public let store: HistoryStore
    public let policy: SchedulePolicy
    private let clock: any CronClock
    private let defaultZone: any CronTimeZone
    private let poller: (any ChangePoller)?
    /// One line per Poll SCM check finished since the last `takePollTraces()`, for the daemon's log.
    public private(set) var pollTraces: [String] = []
    /// Cursors as stored, kept in memory so that computing the next wake reads no database.
    private var cursors: [String: CronInstant] = [:]
    /// Each lane's first due instant after its cursor (nil: never), so a wake looks only at due lanes.
    private var nextDue: [String: CronInstant?] = [:]

    public init(lanes: [ScheduledLane], store: HistoryStore, clock: any CronClock, defaultZone: any CronTimeZone,
                policy: SchedulePolicy = SchedulePolicy(), poller: (any ChangePoller)? = nil) throws(HistoryStoreError) {
        self.lanes = lanes
        self.store = store
        self.clock = clock
        self.defaultZone = defaultZone
        self.policy = policy
        self.poller = poller
        let stored = try store.cursors()
        for lane in lanes { cursors[lane.name] = stored[lane.name] }
    }

    /// After a start: runs left `starting` or `running` by a previous daemon become `interrupted`
    /// (never rerun: the instant was taken). Returns them so the caller can end their process groups.
    public func recoverInterruptedRuns() throws(HistoryStoreError) -> [RunRecord] {
        let active = try store.activeRuns()
        let now = clock.now()
        for run in active {
            let note = run.status == .starting
                ? "the daemon stopped while starting it; not rerun, so it cannot run twice"
                : "the daemon stopped while it ran"
            try store.finish(id: run.id, status: .interrupted, exitStatus: nil, ended: now, note: note)
        }
        return active
    }

    /// The next instant at which some lane is due, after every lane's cursor; nil when none ever is.
    public func nextWake() -> CronInstant? {
        let now = clock.now()
        var earliest: CronInstant?
        for lane in lanes {
            if let next = nextDue(of: lane, now: now), earliest.map({ next < $0 }) ?? true { earliest = next }
        }
        return earliest
    }

    private func nextDue(of lane: ScheduledLane, now: CronInstant) -> CronInstant? {
        if let cached = nextDue[lane.name] { return cached }
        let after = cursors[lane.name] ?? now
        var earliest: CronInstant?
        for schedules in [lane.timers, lane.polls] {
            for schedule in schedules {
                if let next = schedule.nextFire(after: after, defaultZone: defaultZone), earliest.map({ next < $0 }) ?? true { earliest = next }
            }
        }
        if cursors[lane.name] != nil { nextDue[lane.name] = .some(earliest) }
        return earliest
    }

    /// Poll checks decided due by the last `takeDueRuns`, not yet taken.
    private var pendingPolls: [PollRequest] = []

    /// The Poll SCM checks that came due, for the caller to run off its loop (see `PollRequest`).
    public func takePollRequests() -> [PollRequest] {
        defer { pendingPolls.removeAll() }
        return pendingPolls
    }

    /// Records what a poll found: a run to start (returned, recorded `starting`) when the branch
    /// moved since the lane's last run, the commit when the lane never ran, a skipped run when the
    /// poll failed or timed out.
    /// The poll trace lines gathered since the last call.
    public func takePollTraces() -> [String] {
        defer { pollTraces = [] }
        return pollTraces
    }

    public func finishPoll(_ request: PollRequest, outcome: Result<SourceState, any Error>) throws(HistoryStoreError) -> [PlannedRun] {
        let state: SourceState
        switch outcome {
        case .failure(let error):
            _ = try store.record([NewRun(lane: request.lane, trigger: .poll, scheduled: request.scheduled, status: .skipped,
                                         note: "poll failed: \(error)")], cursors: [:], commits: [:])
            pollTraces.append("polled \(request.lane): failed: \(error)")
            return []
        case .success(let found):
            state = found
        }
        guard state.moved else {
            // A check that found nothing new still leaves a row, so the history shows the poll ran.
            let firstCommit = try store.lastCommit(lane: request.lane) == nil ? [request.lane: state.commit] : [:]
            _ = try store.record([NewRun(lane: request.lane, trigger: .poll, scheduled: request.scheduled, status: .skipped,
                                         commit: state.commit, note: "no new commit on the tracked branch")],
                                 cursors: [:], commits: firstCommit)
            pollTraces.append("polled \(request.lane): no new commit (\(state.commit.prefix(10)))")
            return []
        }
        pollTraces.append("polled \(request.lane): new commit \(state.commit.prefix(10))")
        var run = NewRun(lane: request.lane, trigger: request.trigger, scheduled: request.scheduled, status: .starting, commit: state.commit)
        if try store.activeRuns().contains(where: { $0.lane == request.lane }) {
            run.status = .skipped
            run.note = "the previous run of \(request.lane) was still active (no overlapping runs)"
            _ = try store.record([run], cursors: [:], commits: [:])
            return []
        }
        let ids = try store.record([run], cursors: [:], commits: [request.lane: state.commit])
        return [PlannedRun(id: ids[0], lane: run.lane, trigger: run.trigger, scheduled: request.scheduled, commit: state.commit)]
    }

    /// Decides every instant due up to now, records the decisions and moves the cursors in one
    /// transaction, and returns the runs to start (recorded as `starting`). Due Poll SCM checks
    /// are left for `takePollRequests`.
    public func takeDueRuns() throws(HistoryStoreError) -> [PlannedRun] {
        let now = clock.now()
        let activeLanes = Set(try store.activeRuns().map(\.lane))
        var records: [NewRun] = []
        var launches: [Int] = []  // indexes into `records`
        var newCursors: [String: CronInstant] = [:]
        for lane in lanes {
            guard let cursor = cursors[lane.name] else {
                newCursors[lane.name] = now  // a new lane starts from now: nothing to catch up
                continue
            }
            // Nothing due since the cursor: leave it, so a wake touches only the lanes it is for.
            guard now > cursor, let due = nextDue(of: lane, now: now), due <= now else { continue }
            newCursors[lane.name] = now
            let timerInstants = dueInstants(of: lane.timers, after: cursor, through: now)
            let pollInstants = dueInstants(of: lane.polls, after: cursor, through: now)
            let windowStart = now.adding(seconds: -policy.catchUpWindow)
            for instant in timerInstants where instant < windowStart {
                records.append(NewRun(lane: lane.name, trigger: .timer, scheduled: instant, status: .missed,
                                      note: "due while the daemon was not running, beyond the catch-up window"))
            }
            let recentTimers = timerInstants.filter { $0 >= windowStart }
            let recentPolls = pollInstants.filter { $0 >= windowStart }
            if let latest = recentTimers.last {
                for instant in recentTimers.dropLast() {
                    records.append(NewRun(lane: lane.name, trigger: .timer, scheduled: instant, status: .missed,
                                          note: "due while the daemon was not running; covered by the catch-up run at \(latest)"))
                }
                let trigger: RunTrigger = now.secondsSince1970 - latest.secondsSince1970 > policy.onTimeTolerance ? .catchUp : .timer
                append(NewRun(lane: lane.name, trigger: trigger, scheduled: latest, status: .starting), busy: activeLanes.contains(lane.name))
            } else if let latest = recentPolls.last {
                guard poller != nil else {
                    records.append(NewRun(lane: lane.name, trigger: .scm, scheduled: latest, status: .skipped, note: "no poller configured"))
                    continue
                }
                let trigger: RunTrigger = now.secondsSince1970 - latest.secondsSince1970 > policy.onTimeTolerance ? .catchUp : .scm
                pendingPolls.append(PollRequest(lane: lane.name, scheduled: latest, trigger: trigger, lastBuilt: try store.lastCommit(lane: lane.name)))
            }
        }

        func append(_ run: NewRun, busy: Bool) {
            guard !busy else {
                var skipped = run
                skipped.status = .skipped
                skipped.note = "the previous run of \(run.lane) was still active (no overlapping runs)"
                records.append(skipped)
                return
            }
            launches.append(records.count)
            records.append(run)
        }

        // Lanes first seen get a cursor even when nothing is due.
        let ids = try store.record(records, cursors: newCursors, commits: [:])
        for (lane, cursor) in newCursors {
            cursors[lane] = cursor
            nextDue[lane] = nil
        }
        return launches.map { index in
            let run = records[index]
            return PlannedRun(id: ids[index], lane: run.lane, trigger: run.trigger, scheduled: run.scheduled!, commit: run.commit)
        }
    }

    /// Fire instants of `schedules` in (after, through], oldest first; after a long downtime only the
    /// latest `recordedMissesLimit` before the catch-up window are listed, then the whole window.
    private func dueInstants(of schedules: [CronSchedule], after: CronInstant, through: CronInstant) -> [CronInstant] {
        var instants: [CronInstant] = []
        var position = after
        let windowStart = through.adding(seconds: -policy.catchUpWindow)
        while true {
            var next: CronInstant?
            for schedule in schedules {
                if let fire = schedule.nextFire(after: position, defaultZone: defaultZone), next.map({ fire < $0 }) ?? true { next = fire }
            }
            guard let fire = next, fire <= through else { break }
            if fire < windowStart, instants.count >= policy.recordedMissesLimit {
                instants.removeFirst()
            }
            instants.append(fire)
            position = fire
        }
        return instants
    }
}
