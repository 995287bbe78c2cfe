public import LanesCron
import LanesPlatform

/// Schedule state and run history of one project, in one SQLite database (`history.sqlite`).
///
/// Readers (`lanes history`, `lanes logs`, a web page) open their own store and call `runs(...)`,
/// `run(id:)` and `laneNames()`; WAL mode lets them read while the daemon writes. The daemon writes
/// through the scheduler: a lane's cursor (every due instant up to it has been decided) moves in the
/// same transaction that records the runs it decided, so a crash never decides an instant twice.
///
/// A store is one connection: use it from one thread at a time, and open one per thread.
public final class HistoryStore {
    /// The database file.
    public let path: String
    private let connection: SQLiteConnection

    static let schemaVersion = 3
    /// The oldest schema a reader understands (`reading(directory:)`): version 3 only added tables writers use.
    static let oldestReadableVersion = 2
    static let fileName = "history.sqlite"

    /// Opens (creating) `directory/history.sqlite`. Whichever command creates the state first
    /// (`lanes history`, a web page, the daemon), missing folders are made 0700 and the database
    /// 0600: the history names lanes, commits and log paths nobody else needs to read.
    public convenience init(directory: String) throws(HistoryStoreError) {
        do { try FilePath.makeDirectories(directory, mode: 0o700) } catch {
            throw HistoryStoreError("cannot create the state directory \(directory): \(error)")
        }
        try self.init(path: directory + "/" + Self.fileName)
    }

    /// Opens (creating) the database at `path`. An existing file must be a lanes history: an empty
    /// file or another program's database is refused, never taken for a new history (that would
    /// lose the runs and the catch-up cursors).
    public init(path: String) throws(HistoryStoreError) {
        self.path = path
        if !FilePath.exists(path) { try Self.create(path) }
        if FilePath.size(of: path) == 0 {
            throw HistoryStoreError("\(path) is empty, not a lanes history (a copy cut short, or a full disk?); restore it from a backup, or remove it to start a new history")
        }
        connection = try SQLiteConnection(path: path)
        try checkIsHistory()
        try migrate()
    }

    /// Makes a new history under another name and links it into place whole, so that a reader
    /// (`lanes history` while the daemon starts) never meets the empty file SQLite begins with. When
    /// another process linked one first, theirs is kept.
    private static func create(_ path: String) throws(HistoryStoreError) {
        let fresh = "\(path).new-\(getpid())"
        unlink(fresh)
        defer { unlink(fresh) }
        // 0600 from the open that creates it: SQLite would make it 0644 (less the umask), and
        // gives its -wal and -shm files the database's mode.
        let descriptor = open(fresh, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else {
            throw HistoryStoreError("cannot create \(fresh): \(String(cString: strerror(errno)))")
        }
        close(descriptor)
        try makeSchema(at: fresh)
        guard link(fresh, path) == 0 || errno == EEXIST else {
            throw HistoryStoreError("cannot create \(path): \(String(cString: strerror(errno)))")
        }
    }

    /// A history with the current schema at `path`, closed when this returns.
    private static func makeSchema(at path: String) throws(HistoryStoreError) {
        let store = HistoryStore(path: path, connection: try SQLiteConnection(path: path))
        try store.migrate()
    }

    /// Opens the history at `directory/history.sqlite` for reading only (a web page, `lanes serve`):
    /// nothing is created or written; nil when there is no history yet.
    public static func reading(directory: String) throws(HistoryStoreError) -> HistoryStore? {
        let path = directory + "/" + fileName
        guard FilePath.exists(path) else { return nil }
        if FilePath.size(of: path) == 0 { throw HistoryStoreError("\(path) is empty, not a lanes history") }
        let store = HistoryStore(path: path, connection: try SQLiteConnection(path: path, readOnly: true))
        try store.checkIsHistory()
        let version = try store.connection.query("PRAGMA user_version").first?[0].integer ?? 0
        guard version >= Int64(oldestReadableVersion), version <= Int64(schemaVersion) else {
            throw HistoryStoreError("\(path) has schema version \(version); this lanes reads versions \(oldestReadableVersion) to \(schemaVersion)")
        }
        return store
    }

    private init(path: String, connection: SQLiteConnection) {
        self.path = path
        self.connection = connection
    }

    /// Our application id (`PRAGMA application_id`, "LNES"), written into every new history.
    static let applicationID: Int64 = 0x4C4E_4553

    /// Refuses a database another program made: a foreign application id, or tables without
    /// lanes' schema version.
    private func checkIsHistory() throws(HistoryStoreError) {
        let application = try connection.query("PRAGMA application_id").first?[0].integer ?? 0
        let version = try connection.query("PRAGMA user_version").first?[0].integer ?? 0
        let tables = try connection.query("SELECT name FROM sqlite_master WHERE type = 'table'").compactMap { $0[0].text }
        let foreign = (application != 0 && application != Self.applicationID)
            || (version == 0 && !tables.isEmpty)
            || (version > 0 && !tables.contains("runs"))
        if foreign {
            throw HistoryStoreError("\(path) is not a lanes history (another program's SQLite database); lanes will not change it. Point LANES_STATE_DIR (or --state-dir) elsewhere, or move the file away")
        }
    }

    /// Where a project's state lives (see `ProjectState`): the home comes from the password database
    /// when `HOME` is unset, never a shared folder such as `/tmp`, where another user could plant it.
    public static func defaultDirectory(projectDirectory: String, environment: [String: String]) throws(HistoryStoreError) -> String {
        guard let directory = ProjectState.directory(projectDirectory: projectDirectory, environment: environment) else {
            throw HistoryStoreError("no home folder for the state of \(projectDirectory): HOME is unset and the password database has none; set LANES_STATE_DIR (or --state-dir) to a folder of yours")
        }
        return directory
    }

    // MARK: Reading

    /// Runs, newest first: of one lane or all, at most `limit`, older than run `before` when given,
    /// only of `status` when given, and without Poll SCM checks that started nothing when
    /// `excludingPolls`. Each filter is an indexed condition (`runs_by_lane`, `runs_by_status_and_id`,
    /// `runs_by_lane_without_polls`), so a page of a long history reads that page only.
    public func runs(lane: String? = nil, limit: Int = 100, before: Int64? = nil, status: RunStatus? = nil,
                     excludingPolls: Bool = false) throws(HistoryStoreError) -> [RunRecord] {
        var conditions: [String] = []
        var values: [SQLValue] = []
        if let lane { conditions.append("lane = ?"); values.append(.text(lane)) }
        if let before { conditions.append("id < ?"); values.append(.integer(before)) }
        if let status { conditions.append("status = ?"); values.append(.text(status.rawValue)) }
        if excludingPolls { conditions.append("trigger != '\(RunTrigger.poll.rawValue)'") }
        let filter = conditions.isEmpty ? "" : "WHERE " + conditions.joined(separator: " AND ")
        values.append(.integer(Int64(limit)))
        return try withSteps(try connection.query("SELECT \(Self.columns) FROM runs \(filter) ORDER BY id DESC LIMIT ?", values).map(Self.record))
    }

    /// One run, or nil when there is no run with that id.
    public func run(id: Int64) throws(HistoryStoreError) -> RunRecord? {
        try withSteps(try connection.query("SELECT \(Self.columns) FROM runs WHERE id = ?", [.integer(id)]).map(Self.record)).first
    }

    /// The records with their steps, read in one query.
    private func withSteps(_ records: [RunRecord]) throws(HistoryStoreError) -> [RunRecord] {
        guard !records.isEmpty else { return records }
        let placeholders = Array(repeating: "?", count: records.count).joined(separator: ",")
        var steps: [Int64: [RunStep]] = [:]
        for row in try connection.query(
            "SELECT run_id, position, step_id, banner, duration_ms, result, error FROM steps WHERE run_id IN (\(placeholders)) ORDER BY run_id, position",
            records.map { .integer($0.id) }) {
            let result = row[5].text
            steps[row[0].integer ?? 0, default: []].append(RunStep(
                index: Int(row[1].integer ?? 0), id: row[2].text ?? "", banner: row[3].text ?? "",
                durationMilliseconds: row[4].integer, succeeded: result.map { $0 == "ok" }, error: row[6].text))
        }
        return records.map { record in
            var record = record
            record.steps = steps[record.id] ?? []
            return record
        }
    }

    /// Every lane that has history, sorted: one index seek per lane (`runs_by_lane`), not a scan of
    /// every run.
    public func laneNames() throws(HistoryStoreError) -> [String] {
        try connection.query("""
            WITH RECURSIVE lanes(lane) AS (
                SELECT MIN(lane) FROM runs
                UNION ALL
                SELECT (SELECT MIN(lane) FROM runs WHERE lane > lanes.lane) FROM lanes WHERE lanes.lane IS NOT NULL)
            SELECT lane FROM lanes WHERE lane IS NOT NULL
            """).compactMap { $0[0].text }
    }

    /// Runs that are starting or running, oldest first.
    public func activeRuns() throws(HistoryStoreError) -> [RunRecord] {
        try connection.query("SELECT \(Self.columns) FROM runs WHERE status IN ('starting', 'running') ORDER BY id").map(Self.record)
    }

    /// SQLite's `PRAGMA integrity_check`: "ok", or the problems found.
    public func integrityCheck() throws(HistoryStoreError) -> String {
        try connection.query("PRAGMA integrity_check").compactMap { $0.first?.text }.joined(separator: "\n")
    }

    // MARK: Schedule state

    /// Every due instant of `lane` up to this one has been decided (run, skipped or missed).
    public func cursor(lane: String) throws(HistoryStoreError) -> CronInstant? {
        try connection.query("SELECT cursor FROM lane_state WHERE lane = ?", [.text(lane)]).first?[0].real
            .map(CronInstant.init(secondsSince1970:))
    }

    /// Every lane's cursor.
    public func cursors() throws(HistoryStoreError) -> [String: CronInstant] {
        var result: [String: CronInstant] = [:]
        for row in try connection.query("SELECT lane, cursor FROM lane_state") {
            if let lane = row[0].text, let cursor = row[1].real { result[lane] = CronInstant(secondsSince1970: cursor) }
        }
        return result
    }

    /// The commit the lane's last SCM-triggered run was started for.
    public func lastCommit(lane: String) throws(HistoryStoreError) -> String? {
        try connection.query("SELECT last_commit FROM lane_state WHERE lane = ?", [.text(lane)]).first?[0].text
    }

    // MARK: Writing

    /// Records decided runs and moves cursors (and SCM commits) in one transaction; returns the new
    /// runs' ids in order.
    public func record(_ runs: [NewRun], cursors: [String: CronInstant], commits: [String: String] = [:]) throws(HistoryStoreError) -> [Int64] {
        try connection.transaction { () throws(HistoryStoreError) -> [Int64] in
            var ids: [Int64] = []
            for run in runs {
                try connection.query(
                    "INSERT INTO runs (lane, trigger, scheduled, status, commit_id, note) VALUES (?, ?, ?, ?, ?, ?)",
                    [.text(run.lane), .text(run.trigger.rawValue), run.scheduled.map { .real($0.secondsSince1970) } ?? .null,
                     .text(run.status.rawValue), run.commit.map(SQLValue.text) ?? .null, run.note.map(SQLValue.text) ?? .null])
                ids.append(connection.lastInsertedRowID)
            }
            for (lane, cursor) in cursors {
                try connection.query(
                    "INSERT INTO lane_state (lane, cursor) VALUES (?, ?) ON CONFLICT(lane) DO UPDATE SET cursor = excluded.cursor",
                    [.text(lane), .real(cursor.secondsSince1970)])
            }
            for (lane, commit) in commits {
                try connection.query("UPDATE lane_state SET last_commit = ? WHERE lane = ?", [.text(commit), .text(lane)])
            }
            return ids
        }
    }

    /// The child of a `starting` run was started.
    public func markRunning(id: Int64, processID: Int32, started: CronInstant, logPath: String) throws(HistoryStoreError) {
        try markRunning([StartedRun(id: id, processID: processID, started: started, logPath: logPath)])
    }

    /// Children started together, recorded in one transaction (one sync to disk, not one per run).
    public func markRunning(_ runs: [StartedRun]) throws(HistoryStoreError) {
        guard !runs.isEmpty else { return }
        try connection.transaction { () throws(HistoryStoreError) in
            for run in runs {
                try connection.query("UPDATE runs SET status = 'running', pid = ?, started = ?, log_path = ?, run_folder = ?, commit_id = COALESCE(commit_id, ?) WHERE id = ?",
                                     [.integer(Int64(run.processID)), .real(run.started.secondsSince1970), .text(run.logPath),
                                      run.folder.map(SQLValue.text) ?? .null, run.commit.map(SQLValue.text) ?? .null, .integer(run.id)])
            }
        }
    }

    /// An active run ended (succeeded, failed, cancelled or interrupted).
    public func finish(id: Int64, status: RunStatus, exitStatus: Int32?, ended: CronInstant, note: String? = nil) throws(HistoryStoreError) {
        try connection.query(
            "UPDATE runs SET status = ?, exit_status = ?, ended = ?, note = COALESCE(?, note) WHERE id = ?",
            [.text(status.rawValue), exitStatus.map { .integer(Int64($0)) } ?? .null, .real(ended.secondsSince1970),
             note.map(SQLValue.text) ?? .null, .integer(id)])
    }

    // MARK: Events

    /// Stores what a run's events say: its steps, error, the version, build number and artifacts its
    /// steps reported, and the commit it built when none was recorded at its start.
    public func recordEvents(id: Int64, _ log: RunEventLog) throws(HistoryStoreError) {
        try connection.transaction { () throws(HistoryStoreError) in
            try recordEventsInTransaction(id: id, log)
        }
    }

    /// Stores what the events file in a run's folder says; a run killed before it wrote one keeps no steps.
    public func recordEvents(id: Int64, folder: String) throws(HistoryStoreError) {
        guard let log = try? RunEventLog(path: folder + "/" + ProjectState.eventsFileName) else { return }
        try recordEvents(id: id, log)
    }

    private func recordEventsInTransaction(id: Int64, _ log: RunEventLog) throws(HistoryStoreError) {
        try connection.query("DELETE FROM steps WHERE run_id = ?", [.integer(id)])
        for (position, step) in log.steps.enumerated() {
            try connection.query(
                "INSERT INTO steps (run_id, position, step_id, banner, duration_ms, result, error) VALUES (?, ?, ?, ?, ?, ?, ?)",
                [.integer(id), .integer(Int64(position + 1)), .text(step.id), .text(step.banner),
                 step.durationMilliseconds.map(SQLValue.integer) ?? .null,
                 step.succeeded.map { .text($0 ? "ok" : "failed") } ?? .null, step.error.map(SQLValue.text) ?? .null])
        }
        try connection.query(
            "UPDATE runs SET version = ?, build_number = ?, artifacts = ?, error = ?, commit_id = COALESCE(commit_id, ?) WHERE id = ?",
            [log.version.map(SQLValue.text) ?? .null, log.buildNumber.map(SQLValue.text) ?? .null,
             log.artifacts.isEmpty ? .null : .text(log.artifacts.joined(separator: "\n")),
             log.error.map(SQLValue.text) ?? .null, log.commit.map(SQLValue.text) ?? .null, .integer(id)])
    }

    /// Records the runs started outside the daemon (`lanes LANE` by hand or on CI) whose folders in
    /// `runsDirectory` are not in the history yet. The runner only writes its events file, so a lane's
    /// start never pays for SQLite; whoever reads the history indexes them first. A run still going
    /// (its process alive, no `lane_finished`) waits for a later read. Returns how many were added.
    ///
    /// Every read of the history calls this, so it costs nothing per run: the runs folder is listed
    /// only when it changed since the last listing (its inode and modification time, kept in
    /// `outside_scan`), each new folder is looked up through the `run_folder` index, and a run that
    /// was still going is remembered in `outside_waiting` and looked at again on each read.
    @discardableResult
    public func indexOutsideRuns() throws(HistoryStoreError) -> Int {
        try indexOutsideRuns(in: FilePath.directory(of: path) + "/" + ProjectState.runsFolderName) { ProjectState.isProcessAlive($0) }
    }

    @discardableResult
    public func indexOutsideRuns(in runsDirectory: String, isRunning: (Int32) -> Bool) throws(HistoryStoreError) -> Int {
        guard let fingerprint = Self.folderFingerprint(runsDirectory) else { return 0 }
        let recorded = try connection.query("SELECT fingerprint FROM outside_scan WHERE runs_directory = ?", [.text(runsDirectory)]).first?[0].text
        let previouslyWaiting = try connection.query("SELECT folder FROM outside_waiting").compactMap { $0[0].text }
            .filter { FilePath.directory(of: $0) == runsDirectory }
        var folders = previouslyWaiting
        if recorded != fingerprint {
            // Taken before the listing: a folder made during it changes the folder again, so the next read lists it.
            for name in FilePath.entries(of: runsDirectory).sorted() where name.hasPrefix(ProjectState.outsideRunPrefix) {
                let folder = runsDirectory + "/" + name
                if !folders.contains(folder), try connection.query("SELECT 1 FROM runs WHERE run_folder = ?", [.text(folder)]).isEmpty {
                    folders.append(folder)
                }
            }
        }
        var added = 0
        var waiting: [String] = []
        for folder in folders {
            let name = FilePath.name(of: folder)
            let log = try? RunEventLog(path: folder + "/" + ProjectState.eventsFileName)
            let running = log?.succeeded == nil && ProjectState.processID(ofOutsideRunFolder: name).map(isRunning) == true
            if running {
                waiting.append(folder)  // not finished, or not even started its events yet
                continue
            }
            guard let log, log.lane != nil else { continue }  // its process is gone and it never said which lane
            try connection.transaction { () throws(HistoryStoreError) in
                let started = log.startedSeconds
                let ended = started.flatMap { start in log.durationMilliseconds.map { start + $0 / 1000 } }
                let status: RunStatus = switch log.succeeded {
                case true?: .succeeded
                case false?: .failed
                case nil: .interrupted
                }
                try connection.query(
                    "INSERT INTO runs (lane, trigger, started, ended, status, commit_id, run_folder, note) VALUES (?, ?, ?, ?, ?, ?, ?, ?)",
                    [.text(log.lane ?? ""), .text(log.trigger.flatMap(RunTrigger.init(rawValue:))?.rawValue ?? RunTrigger.manual.rawValue),
                     started.map(SQLValue.real) ?? .null, ended.map(SQLValue.real) ?? .null, .text(status.rawValue),
                     log.commit.map(SQLValue.text) ?? .null, .text(folder),
                     log.succeeded == nil ? .text("the lane's process ended before its last event") : .null])
                try recordEventsInTransaction(id: connection.lastInsertedRowID, log)
            }
            added += 1
        }
        if recorded != fingerprint || Set(waiting) != Set(previouslyWaiting) {
            try connection.transaction { () throws(HistoryStoreError) in
                for folder in previouslyWaiting { try connection.query("DELETE FROM outside_waiting WHERE folder = ?", [.text(folder)]) }
                for folder in waiting { try connection.query("INSERT OR IGNORE INTO outside_waiting (folder) VALUES (?)", [.text(folder)]) }
                try connection.query(
                    "INSERT INTO outside_scan (runs_directory, fingerprint) VALUES (?, ?) ON CONFLICT(runs_directory) DO UPDATE SET fingerprint = excluded.fingerprint",
                    [.text(runsDirectory), .text(fingerprint)])
            }
        }
        return added
    }

    /// The runs folder's identity and modification time, which change whenever an entry is added or removed.
    private static func folderFingerprint(_ directory: String) -> String? {
        var info = stat()
        guard stat(directory, &info) == 0 else { return nil }
        let modified = FileTimes.modification(of: info)
        return "\(info.st_dev):\(info.st_ino):\(modified.tv_sec).\(modified.tv_nsec)"
    }

    // MARK: Schema

    private func migrate() throws(HistoryStoreError) {
        let version = try connection.query("PRAGMA user_version").first?[0].integer ?? 0
        guard version < Self.schemaVersion else {
            guard version == Self.schemaVersion else {
                throw HistoryStoreError("\(path) has schema version \(version), newer than this lanes (\(Self.schemaVersion)); upgrade lanes")
            }
            return
        }
        try connection.transaction { () throws(HistoryStoreError) in
            if version < 1 { try createVersion1() }
            // 2: each run's steps and reported facts, from its events; runs started outside the daemon.
            if version < 2 { try connection.execute("""
                ALTER TABLE runs ADD COLUMN run_folder TEXT;
                ALTER TABLE runs ADD COLUMN version TEXT;
                ALTER TABLE runs ADD COLUMN build_number TEXT;
                ALTER TABLE runs ADD COLUMN artifacts TEXT;
                ALTER TABLE runs ADD COLUMN error TEXT;
                CREATE UNIQUE INDEX IF NOT EXISTS runs_by_folder ON runs (run_folder) WHERE run_folder IS NOT NULL;
                CREATE TABLE IF NOT EXISTS steps (
                    run_id INTEGER NOT NULL REFERENCES runs (id) ON DELETE CASCADE,
                    position INTEGER NOT NULL,
                    step_id TEXT NOT NULL,
                    banner TEXT NOT NULL,
                    duration_ms INTEGER,
                    result TEXT,
                    error TEXT,
                    PRIMARY KEY (run_id, position)
                );
                """) }
            if version < 3 {
                // 3: what the last listing of the runs folder saw, the runs that were still going, and
                // indexes for the web page's filters.
                try connection.execute("""
                    CREATE TABLE IF NOT EXISTS outside_scan (
                        runs_directory TEXT PRIMARY KEY,
                        fingerprint TEXT NOT NULL
                    );
                    CREATE TABLE IF NOT EXISTS outside_waiting (folder TEXT PRIMARY KEY);
                    CREATE INDEX IF NOT EXISTS runs_by_status_and_id ON runs (status, id);
                    CREATE INDEX IF NOT EXISTS runs_by_lane_without_polls ON runs (lane, id) WHERE trigger != 'poll';
                    """)
            }
            try connection.execute("PRAGMA user_version = \(Self.schemaVersion)")
        }
    }

    private func createVersion1() throws(HistoryStoreError) {
        do {
            try connection.execute("""
                CREATE TABLE IF NOT EXISTS runs (
                    id INTEGER PRIMARY KEY AUTOINCREMENT,
                    lane TEXT NOT NULL,
                    trigger TEXT NOT NULL,
                    scheduled REAL,
                    started REAL,
                    ended REAL,
                    status TEXT NOT NULL,
                    exit_status INTEGER,
                    commit_id TEXT,
                    log_path TEXT,
                    pid INTEGER,
                    note TEXT
                );
                CREATE UNIQUE INDEX IF NOT EXISTS runs_by_due_instant ON runs (lane, scheduled) WHERE scheduled IS NOT NULL;
                CREATE INDEX IF NOT EXISTS runs_by_lane ON runs (lane, id);
                CREATE INDEX IF NOT EXISTS runs_by_status ON runs (status) WHERE status IN ('starting', 'running');
                CREATE TABLE IF NOT EXISTS lane_state (
                    lane TEXT PRIMARY KEY,
                    cursor REAL NOT NULL,
                    last_commit TEXT
                );
                PRAGMA application_id = \(Self.applicationID);
                PRAGMA user_version = 1;
                """)
        }
    }

    private static let columns = "id, lane, trigger, scheduled, started, ended, status, exit_status, commit_id, log_path, pid, note, version, build_number, artifacts, error, run_folder"

    private static func record(_ row: [SQLValue]) -> RunRecord {
        func instant(_ value: SQLValue) -> CronInstant? { value.real.map(CronInstant.init(secondsSince1970:)) }
        var record = RunRecord(
            id: row[0].integer ?? 0, lane: row[1].text ?? "",
            trigger: row[2].text.flatMap(RunTrigger.init(rawValue:)) ?? .manual,
            scheduled: instant(row[3]), started: instant(row[4]), ended: instant(row[5]),
            status: row[6].text.flatMap(RunStatus.init(rawValue:)) ?? .interrupted,
            exitStatus: row[7].integer.map { Int32(truncatingIfNeeded: $0) }, commit: row[8].text, logPath: row[9].text,
            processID: row[10].integer.map { Int32(truncatingIfNeeded: $0) }, note: row[11].text)
        record.version = row[12].text
        record.buildNumber = row[13].text
        record.artifacts = row[14].text.map { $0.split(separator: "\n").map(String.init) } ?? []
        record.error = row[15].text
        record.folder = row[16].text
        return record
    }
}
