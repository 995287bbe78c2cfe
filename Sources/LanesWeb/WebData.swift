public import LanesDoctor
public import LanesSchedule

/// One scheduled lane as the Schedules page and `/api/schedules` show it: the shape of
/// `lanes schedule --json`, plus the last run's status from the history.
public struct LaneScheduleView: Sendable, Hashable {
    public struct Trigger: Sendable, Hashable {
        public let kind: String
        public let spec: String
        /// The spec with `H` resolved, one line per cron line.
        public let resolved: [String]
        public let timeZone: String
        /// The next fire times, ISO 8601 with the zone's offset.
        public let next: [String]

        public init(kind: String, spec: String, resolved: [String], timeZone: String, next: [String]) {
            self.kind = kind
            self.spec = spec
            self.resolved = resolved
            self.timeZone = timeZone
            self.next = next
        }
    }

    public let lane: String
    public let seed: String
    public let triggers: [Trigger]

    public init(lane: String, seed: String, triggers: [Trigger]) {
        self.lane = lane
        self.seed = seed
        self.triggers = triggers
    }
}

/// Which runs the History page lists.
public struct RunFilter: Sendable, Hashable {
    public var lane: String?
    public var status: RunStatus?
    public var limit: Int
    /// Leave out Poll SCM checks that started nothing (trends and a lane's last status are about runs).
    public var runsOnly: Bool

    public init(lane: String? = nil, status: RunStatus? = nil, limit: Int = 100, runsOnly: Bool = false) {
        self.lane = lane
        self.status = status
        self.limit = limit
        self.runsOnly = runsOnly
    }
}

/// Everything the pages read. Called from the connection threads; each request reads the run
/// history through one `RunHistoryReading` it opens (`history()`), used on that thread only.
public protocol WebDataSource: Sendable {
    /// The run history as one request reads it: one connection for the whole page.
    func history() throws -> any RunHistoryReading
    func schedules() throws -> [LaneScheduleView]
    func signingHealth() throws -> [SigningHealth]
    /// The daemon's last expiry check, when it made one.
    func lastSigningWatch() -> SigningWatch.Record?
    /// The only folder logs are served from; a run whose log resolves elsewhere has none on the page.
    var logDirectory: String { get }
}

/// The runs a page shows, read through one connection with indexed queries.
public protocol RunHistoryReading {
    func runs(_ filter: RunFilter) throws -> [RunRecord]
    func run(id: Int64) throws -> RunRecord?
    func laneNames() throws -> [String]
}

/// The daemon's state folder: `history.sqlite` and `logs/`, read through `HistoryStore`; schedules
/// and signing health come from the caller (they need the compiled Lanefile).
public struct HistoryDatabaseSource: WebDataSource {
    public let stateDirectory: String
    private let loadSchedules: @Sendable () throws -> [LaneScheduleView]
    private let loadSigningHealth: @Sendable () throws -> [SigningHealth]

    public init(stateDirectory: String,
                schedules: @escaping @Sendable () throws -> [LaneScheduleView],
                signingHealth: @escaping @Sendable () throws -> [SigningHealth]) {
        self.stateDirectory = stateDirectory
        self.loadSchedules = schedules
        self.loadSigningHealth = signingHealth
    }

    public var logDirectory: String { stateDirectory + "/logs" }

    /// The site never creates a history (nothing to show until the daemon or `lanes history` made
    /// one); runs started by hand or on CI join an existing one when a page reads it.
    public func history() throws -> any RunHistoryReading {
        guard try HistoryStore.reading(directory: stateDirectory) != nil else { return NoHistory() }
        let store = try HistoryStore(directory: stateDirectory)
        try store.indexOutsideRuns()
        return StoreHistory(store: store)
    }

    public func schedules() throws -> [LaneScheduleView] { try loadSchedules() }
    public func signingHealth() throws -> [SigningHealth] { try loadSigningHealth() }
    public func lastSigningWatch() -> SigningWatch.Record? { SigningWatch(stateDirectory: stateDirectory).latest() }
}

/// A history that exists: the filters are the store's queries.
struct StoreHistory: RunHistoryReading {
    let store: HistoryStore

    func runs(_ filter: RunFilter) throws -> [RunRecord] {
        try store.runs(lane: filter.lane, limit: filter.limit, status: filter.status, excludingPolls: filter.runsOnly)
    }

    func run(id: Int64) throws -> RunRecord? { try store.run(id: id) }
    func laneNames() throws -> [String] { try store.laneNames() }
}

/// No history yet.
struct NoHistory: RunHistoryReading {
    func runs(_ filter: RunFilter) throws -> [RunRecord] { [] }
    func run(id: Int64) throws -> RunRecord? { nil }
    func laneNames() throws -> [String] { [] }
}
