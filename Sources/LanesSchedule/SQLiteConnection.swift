internal import CSQLite

/// A value bound to or read from an SQL statement.
enum SQLValue: Hashable {
    case null
    case integer(Int64)
    case real(Double)
    case text(String)

    var integer: Int64? { if case .integer(let value) = self { value } else { nil } }
    var real: Double? {
        switch self {
        case .real(let value): value
        case .integer(let value): Double(value)
        default: nil
        }
    }
    var text: String? { if case .text(let value) = self { value } else { nil } }
}

/// One SQLite connection through the C API: statements with bound values, rows as arrays, and
/// transactions. Used from one thread at a time (the daemon's loop, or one CLI command).
final class SQLiteConnection {
    private let handle: OpaquePointer
    let path: String

    /// Opens (creating) the database in WAL mode with full syncs: a committed transaction survives
    /// kill -9 and power loss, and readers (`lanes history`) never block the daemon.
    /// `readOnly` opens an existing database without ever writing it (nor creating it).
    init(path: String, readOnly: Bool = false) throws(HistoryStoreError) {
        var pointer: OpaquePointer?
        let flags = (readOnly ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE) | SQLITE_OPEN_NOMUTEX
        let code = sqlite3_open_v2(path, &pointer, flags, nil)
        guard code == SQLITE_OK, let pointer else {
            let message = pointer.map { String(cString: sqlite3_errmsg($0)) } ?? "out of memory"
            sqlite3_close(pointer)
            throw HistoryStoreError("cannot open \(path): \(message)")
        }
        handle = pointer
        self.path = path
        sqlite3_busy_timeout(handle, 10_000)
        if !readOnly { try execute("PRAGMA journal_mode=WAL; PRAGMA synchronous=FULL; PRAGMA foreign_keys=ON") }
    }

    deinit { sqlite3_close_v2(handle) }

    /// Runs one or more statements without results.
    func execute(_ sql: String) throws(HistoryStoreError) {
        var error: UnsafeMutablePointer<CChar>?
        guard sqlite3_exec(handle, sql, nil, nil, &error) == SQLITE_OK else {
            let message = error.map { String(cString: $0) } ?? "unknown error"
            sqlite3_free(error)
            throw HistoryStoreError("\(path): \(message) (in: \(sql))")
        }
    }

    /// Runs one statement with `values` bound to its `?` parameters and returns every row.
    @discardableResult
    func query(_ sql: String, _ values: [SQLValue] = []) throws(HistoryStoreError) -> [[SQLValue]] {
        var statement: OpaquePointer?
        guard sqlite3_prepare_v2(handle, sql, -1, &statement, nil) == SQLITE_OK, let statement else {
            throw failure(sql)
        }
        defer { sqlite3_finalize(statement) }
        for (offset, value) in values.enumerated() {
            let index = Int32(offset + 1)
            let code: Int32 = switch value {
            case .null: sqlite3_bind_null(statement, index)
            case .integer(let number): sqlite3_bind_int64(statement, index, number)
            case .real(let number): sqlite3_bind_double(statement, index, number)
            case .text(let text): sqlite3_bind_text(statement, index, text, -1, Self.transient)
            }
            guard code == SQLITE_OK else { throw failure(sql) }
        }
        var rows: [[SQLValue]] = []
        while true {
            let code = sqlite3_step(statement)
            if code == SQLITE_DONE { break }
            guard code == SQLITE_ROW else { throw failure(sql) }
            rows.append((0..<sqlite3_column_count(statement)).map { column in
                switch sqlite3_column_type(statement, column) {
                case SQLITE_INTEGER: .integer(sqlite3_column_int64(statement, column))
                case SQLITE_FLOAT: .real(sqlite3_column_double(statement, column))
                case SQLITE_TEXT: .text(String(cString: sqlite3_column_text(statement, column)))
                default: .null
                }
            })
        }
        return rows
    }

    var lastInsertedRowID: Int64 { sqlite3_last_insert_rowid(handle) }

    /// Runs `body` in a write transaction taken at once (BEGIN IMMEDIATE), committed when it returns
    /// and rolled back when it throws.
    func transaction<Result>(_ body: () throws(HistoryStoreError) -> Result) throws(HistoryStoreError) -> Result {
        try execute("BEGIN IMMEDIATE")
        do {
            let result = try body()
            try execute("COMMIT")
            return result
        } catch {
            try? execute("ROLLBACK")
            throw error
        }
    }

    private func failure(_ sql: String) -> HistoryStoreError {
        HistoryStoreError("\(path): \(String(cString: sqlite3_errmsg(handle))) (in: \(sql))")
    }

    /// SQLITE_TRANSIENT: SQLite copies bound text before the call returns.
    private static let transient = unsafeBitCast(-1, to: sqlite3_destructor_type.self)
}
