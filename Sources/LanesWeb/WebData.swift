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

    public init(lane: String? = nil, status: RunStatus? = nil, limit: Int = 100) {
        self.lane = lane
        self.status = status
        self.limit = limit
    }
}

/// Everything the pages read. Called from the connection threads, so an implementation opens what
/// it needs per call (a `HistoryStore` is one SQLite connection, used from one thread at a time).
public protocol WebDataSource: Sendable {
    func runs(_ filter: RunFilter) throws -> [RunRecord]
    func run(id: Int64) throws -> RunRecord?
    func laneNames() throws -> [String]
    func schedules() throws -> [LaneScheduleView]
    func signingHealth() throws -> [SigningHealth]
    /// The daemon's last expiry check, when it made one.
    func lastSigningWatch() -> SigningWatch.Record?
    /// The only folder logs are served from; a run whose log resolves elsewhere has none on the page.
    var logDirectory: String { get }
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

    /// Read-only: the site never creates or writes a history (nil until the daemon made one).
    private func store() throws -> HistoryStore? { try HistoryStore.reading(directory: stateDirectory) }

    public func runs(_ filter: RunFilter) throws -> [RunRecord] {
        guard let store = try store() else { return [] }
        guard let status = filter.status else { return try store.runs(lane: filter.lane, limit: filter.limit) }
        // The store filters by lane only; read pages of runs until enough have the status.
        var found: [RunRecord] = []
        var before: Int64?
        while found.count < filter.limit {
            let page = try store.runs(lane: filter.lane, limit: 500, before: before)
            found += page.filter { $0.status == status }
            guard let last = page.last, page.count == 500 else { break }
            before = last.id
        }
        return Array(found.prefix(filter.limit))
    }

    public func run(id: Int64) throws -> RunRecord? { try store()?.run(id: id) }
    public func laneNames() throws -> [String] { try store()?.laneNames() ?? [] }
    public func schedules() throws -> [LaneScheduleView] { try loadSchedules() }
    public func signingHealth() throws -> [SigningHealth] { try loadSigningHealth() }
    public func lastSigningWatch() -> SigningWatch.Record? { SigningWatch(stateDirectory: stateDirectory).latest() }
}
