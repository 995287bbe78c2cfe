public import LanesCron
import LanesPlatform

/// Why a run started.
public enum RunTrigger: String, Sendable, Hashable, CaseIterable {
    /// A `.schedule(...)` (or `schedule:`) spec was due.
    case timer
    /// A `.pollSCM(...)` spec was due and the tracked branch had moved.
    case scm
    /// A run missed while the daemon was down, within the catch-up window, run once at start.
    case catchUp = "catch-up"
    /// Started by hand, outside the daemon.
    case manual
    /// Started outside the daemon on a CI service (the runner recognised its variables).
    case ci
    /// A Poll SCM check that found nothing new (or failed): a trace, not a run of the lane.
    case poll
}

/// Where a run is. `starting` and `running` are active; every other status is final.
public enum RunStatus: String, Sendable, Hashable, CaseIterable {
    /// Recorded, the child not yet known to be started (the due instant is taken before the start).
    case starting
    case running
    case succeeded
    /// The lane exited with a non-zero status (`exitStatus`).
    case failed
    /// Ended by the daemon's shutdown after the grace period.
    case cancelled
    /// The daemon stopped (crash, kill -9, power loss) while the run was starting or running; never rerun.
    case interrupted
    /// Due while the daemon was down and outside the catch-up window, or superseded by one catch-up run.
    case missed
    /// Due while the previous run of the same lane was still active (no overlapping runs), or its poll failed.
    case skipped

    public var isActive: Bool { self == .starting || self == .running }
}

/// One row of the run history.
public struct RunRecord: Sendable, Hashable {
    /// Increasing with time; what `lanes logs RUN_ID` takes.
    public let id: Int64
    public let lane: String
    public let trigger: RunTrigger
    /// The due instant the run belongs to (nil for manual runs).
    public let scheduled: CronInstant?
    public let started: CronInstant?
    public let ended: CronInstant?
    public let status: RunStatus
    /// The child's exit status, when it ended by itself.
    public let exitStatus: Int32?
    /// The commit an SCM-triggered run was started for.
    public let commit: String?
    /// The run's redacted log file.
    public let logPath: String?
    /// The child's process id, which is also its process group id.
    public let processID: Int32?
    /// Why a run was skipped, missed, interrupted or cancelled.
    public let note: String?
    /// The run's steps, from its events.
    public var steps: [RunStep] = []
    /// What its steps reported: the version and build number they set or built, the artifacts they made.
    public var version: String? = nil
    public var buildNumber: String? = nil
    public var artifacts: [String] = []
    /// The error the lane failed with, from its events.
    public var error: String? = nil
    /// The run's folder under the state folder's `logs/` (with `events.jsonl`), when it has one.
    public var folder: String? = nil

    /// The run's events file, beside its log.
    public var eventsPath: String? { folder.map { $0 + "/" + ProjectState.eventsFileName } }
}

/// A row the scheduler records before anything happens for it.
public struct NewRun: Sendable, Hashable {
    public var lane: String
    public var trigger: RunTrigger
    public var scheduled: CronInstant?
    public var status: RunStatus
    public var commit: String?
    public var note: String?

    public init(lane: String, trigger: RunTrigger, scheduled: CronInstant?, status: RunStatus, commit: String? = nil, note: String? = nil) {
        self.lane = lane
        self.trigger = trigger
        self.scheduled = scheduled
        self.status = status
        self.commit = commit
        self.note = note
    }
}

/// A run whose child was started: its process id (= process group), when, and its log (in its run folder).
public struct StartedRun: Sendable, Hashable {
    public var id: Int64
    public var processID: Int32
    public var started: CronInstant
    public var logPath: String
    /// The commit checked out when the run started (timer runs too), when the project is a repository.
    public var commit: String?
    /// The run's folder, where the lane writes `events.jsonl`.
    public var folder: String?

    public init(id: Int64, processID: Int32, started: CronInstant, logPath: String, commit: String? = nil, folder: String? = nil) {
        self.id = id
        self.processID = processID
        self.started = started
        self.logPath = logPath
        self.commit = commit
        self.folder = folder
    }
}
