// The run history at scale: a history of 100,000 runs (five steps each, a dozen lanes, a Poll SCM
// check for every fifth run), read by `lanes history` and by the `/history` page of `lanes serve`,
// each beside the `sqlite3` command line running the same queries on the same file. Every round
// runs each once, in turn, so the load of a shared machine falls on all alike; medians and ratios.
// Usage: HistoryBenchmark --lanes PREFIX/bin/lanes [--runs N] [--history N]
import Foundation
import LanesPlatform

struct Options {
    var lanes = ""
    var runs = 21
    var history = 100_000

    init(_ arguments: [String]) {
        var iterator = arguments.makeIterator()
        while let argument = iterator.next() {
            switch argument {
            case "--lanes": lanes = URL(fileURLWithPath: iterator.next() ?? "").standardizedFileURL.path
            case "--runs": runs = max(1, Int(iterator.next() ?? "") ?? runs)
            case "--history": history = max(1, Int(iterator.next() ?? "") ?? history)
            default: fail("unknown argument \(argument)")
            }
        }
        if lanes.isEmpty { fail("name lanes with --lanes PATH (make bench-history installs one)") }
    }
}

func fail(_ message: String) -> Never {
    FileHandle.standardError.write(Data("error: \(message)\nusage: HistoryBenchmark --lanes PATH [--runs N] [--history N]\n".utf8))
    exit(64)
}

/// Wall time in milliseconds of a command run to completion, output discarded (posix_spawn).
func timed(_ arguments: [String], environment: [String: String]) -> Double {
    var actions = ChildProcess.newFileActions()
    posix_spawn_file_actions_init(&actions)
    defer { posix_spawn_file_actions_destroy(&actions) }
    posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
    posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
    let argv = arguments.map { strdup($0) } + [nil]
    let envp = environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
    defer { (argv + envp).forEach { free($0) } }
    var pid: pid_t = 0
    let start = ContinuousClock.now
    guard posix_spawn(&pid, arguments[0], &actions, nil, argv, envp) == 0 else { fail("cannot start \(arguments[0])") }
    var status: Int32 = 0
    waitpid(pid, &status, 0)
    let elapsed = ContinuousClock.now - start
    guard status == 0 else { fail("\(arguments.joined(separator: " ")) failed (wait status \(status))") }
    return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
}

/// Runs a program with `input` on its standard input and returns its standard output.
func output(_ arguments: [String], input: String = "", environment: [String: String]) -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: arguments[0])
    process.arguments = Array(arguments.dropFirst())
    process.environment = environment
    let stdin = Pipe()
    let stdout = Pipe()
    process.standardInput = stdin
    process.standardOutput = stdout
    do { try process.run() } catch { fail("cannot run \(arguments[0]): \(error)") }
    stdin.fileHandleForWriting.write(Data(input.utf8))
    try? stdin.fileHandleForWriting.close()
    let data = stdout.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    guard process.terminationStatus == 0 else { fail("\(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)") }
    return String(decoding: data, as: UTF8.self)
}

/// `SOCK_STREAM` as `socket` takes it: glibc imports it as an enum, Darwin as an Int32.
func socketType(_ value: Int32) -> Int32 { value }
func socketType<Kind: RawRepresentable>(_ value: Kind) -> Int32 where Kind.RawValue == UInt32 { Int32(value.rawValue) }

/// One HTTP/1.1 GET on 127.0.0.1, read to the end: the status code, the body size and the wall time.
func get(port: UInt16, path: String, token: String) -> (status: Int, bytes: Int, milliseconds: Double) {
    let start = ContinuousClock.now
    let descriptor = socket(AF_INET, socketType(SOCK_STREAM), 0)
    guard descriptor >= 0 else { fail("socket: \(String(cString: strerror(errno)))") }
    defer { close(descriptor) }
    var address = sockaddr_in()
    address.sin_family = sa_family_t(AF_INET)
    address.sin_port = port.bigEndian
    address.sin_addr.s_addr = inet_addr("127.0.0.1")
    let connected = withUnsafePointer(to: &address) {
        $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
    }
    guard connected == 0 else { fail("connect to port \(port): \(String(cString: strerror(errno)))") }
    let request = Array("GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nAuthorization: Bearer \(token)\r\nConnection: close\r\n\r\n".utf8)
    _ = request.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
    var response: [UInt8] = []
    var buffer = [UInt8](repeating: 0, count: 65536)
    while true {
        let count = buffer.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        if count <= 0 { break }
        response += buffer[0..<count]
    }
    let elapsed = ContinuousClock.now - start
    let head = String(decoding: response.prefix(32), as: UTF8.self)
    let status = Int(head.split(separator: " ").dropFirst().first ?? "") ?? 0
    return (status, response.count, Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15)
}

func median(_ values: [Double]) -> Double {
    let sorted = values.sorted()
    return sorted.count % 2 == 1 ? sorted[sorted.count / 2] : (sorted[sorted.count / 2 - 1] + sorted[sorted.count / 2]) / 2
}

func loadAverage() -> String {
    (try? String(contentsOfFile: "/proc/loadavg", encoding: .utf8)).map { $0.split(separator: " ").prefix(3).joined(separator: " ") } ?? "unknown"
}

let options = Options(Array(CommandLine.arguments.dropFirst()))
guard let sqlite3 = ["/usr/bin/sqlite3", "/usr/local/bin/sqlite3", "/opt/homebrew/bin/sqlite3"].first(where: FileManager.default.isExecutableFile)
else { fail("the benchmark's anchor is the sqlite3 command line: install it (apt-get install sqlite3)") }
let work = NSTemporaryDirectory() + "lanes-history-bench-\(getpid())"
let state = work + "/state"
try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: true)
defer { try? FileManager.default.removeItem(atPath: work) }
var environment = ProcessInfo.processInfo.environment
environment["LANES_STATE_DIR"] = state
environment["LANES_CACHE_DIR"] = work + "/cache"
environment["NO_COLOR"] = "1"
let token = "benchmark-token-0123456789abcdef"
environment["LANES_WEB_TOKEN"] = token

// lanes makes the history (its schema, at its version); sqlite3 fills it, as a daemon would have over years.
_ = output([options.lanes, "history", "--state-dir", state], environment: environment)
let database = state + "/history.sqlite"
let fill = """
    PRAGMA journal_mode=WAL;
    BEGIN;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(options.history))
    INSERT INTO runs (lane, trigger, scheduled, started, ended, status, exit_status, commit_id, log_path, pid, note, version, build_number)
    SELECT 'lane' || (i % 12),
           CASE WHEN i % 5 = 0 THEN 'poll' WHEN i % 7 = 0 THEN 'manual' ELSE 'schedule' END,
           CASE WHEN i % 7 = 0 THEN NULL ELSE 1700000000.0 + i * 600 END,
           1700000000.0 + i * 600 + 3, 1700000000.0 + i * 600 + 95,
           CASE WHEN i % 5 = 0 THEN 'skipped' WHEN i % 17 = 0 THEN 'failed' ELSE 'succeeded' END,
           CASE WHEN i % 17 = 0 THEN 1 ELSE 0 END,
           printf('%040x', i * 2654435761), 'logs/' || i || '/output.log', 10000 + i % 30000,
           CASE WHEN i % 5 = 0 THEN 'no new commits' ELSE NULL END, '1.' || (i / 1000) || '.0', CAST(i AS TEXT)
    FROM n;
    WITH RECURSIVE n(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM n WHERE i < \(options.history)),
                   p(position) AS (VALUES (1), (2), (3), (4), (5))
    INSERT INTO steps (run_id, position, step_id, banner, duration_ms, result, error)
    SELECT i, position, 'step_' || position, 'Step ' || position || ' of run ' || i, 1000 + i % 5000,
           CASE WHEN i % 17 = 0 AND position = 5 THEN 'failed' ELSE 'ok' END,
           CASE WHEN i % 17 = 0 AND position = 5 THEN 'exit status 1' ELSE NULL END
    FROM n, p WHERE i % 5 != 0;
    COMMIT;
    ANALYZE;
    """
_ = output([sqlite3, database], input: fill, environment: environment)
let count = output([sqlite3, database, "SELECT COUNT(*) FROM runs"], environment: environment).trimmingCharacters(in: .whitespacesAndNewlines)
print("history: \(count) runs in \(database) (\((try? FileManager.default.attributesOfItem(atPath: database)[.size] as? Int).map { "\(($0 ?? 0) >> 20) MiB" } ?? "?"))")

// The anchors: what each reader asks SQLite for, given to the sqlite3 command line.
let columns = "id, lane, trigger, scheduled, started, ended, status, exit_status, commit_id, log_path, pid, note, version, build_number, artifacts, error, run_folder"
func pageOf(_ filter: String, limit: Int) -> String {
    """
    SELECT \(columns) FROM runs \(filter) ORDER BY id DESC LIMIT \(limit);
    SELECT run_id, position, step_id, banner, duration_ms, result, error FROM steps WHERE run_id IN (SELECT id FROM runs \(filter) ORDER BY id DESC LIMIT \(limit)) ORDER BY run_id, position;
    """
}
let historyQueries = pageOf("", limit: 50)
let lanes = (0..<12).map { "lane\($0)" }.sorted()
let pageQueries = """
    WITH RECURSIVE lanes(lane) AS (SELECT MIN(lane) FROM runs UNION ALL SELECT (SELECT MIN(lane) FROM runs WHERE lane > lanes.lane) FROM lanes WHERE lanes.lane IS NOT NULL) SELECT lane FROM lanes WHERE lane IS NOT NULL;
    \(lanes.map { pageOf("WHERE lane = '\($0)' AND trigger != 'poll'", limit: 30) }.joined(separator: "\n"))
    \(pageOf("", limit: 100))
    """
let historyScript = work + "/history.sql"
let pageScript = work + "/page.sql"
try historyQueries.write(toFile: historyScript, atomically: true, encoding: .utf8)
try pageQueries.write(toFile: pageScript, atomically: true, encoding: .utf8)

// The server: `lanes serve` on a free port, found in what it prints.
let server = Process()
server.executableURL = URL(fileURLWithPath: options.lanes)
server.arguments = ["serve", "--state-dir", state, "--http", "127.0.0.1:0"]
server.currentDirectoryURL = URL(fileURLWithPath: work)
server.environment = environment
let serverErrors = Pipe()
server.standardError = serverErrors
server.standardOutput = FileHandle.nullDevice
try server.run()
defer { server.terminate() }
var banner = Data()
while !String(decoding: banner, as: UTF8.self).contains("/ (history") {
    let chunk = serverErrors.fileHandleForReading.availableData
    if chunk.isEmpty { fail("lanes serve ended: \(String(decoding: banner, as: UTF8.self))") }
    banner.append(chunk)
}
guard let portText = String(decoding: banner, as: UTF8.self).split(separator: "http://127.0.0.1:").last?.split(separator: "/").first,
      let port = UInt16(portText) else { fail("cannot read the port from: \(String(decoding: banner, as: UTF8.self))") }
let first = get(port: port, path: "/history", token: token)
guard first.status == 200 else { fail("GET /history answered \(first.status)") }
print("/history: \(first.bytes) bytes; lanes history: \(output([options.lanes, "history", "--state-dir", state], environment: environment).split(separator: "\n").count) lines")

let commands: [(label: String, measure: () -> Double)] = [
    ("lanes history", { timed([options.lanes, "history", "--state-dir", state], environment: environment) }),
    ("sqlite3, its queries", { timed([sqlite3, "-init", historyScript, database, ".quit"], environment: environment) }),
    ("GET /history (lanes serve)", { get(port: port, path: "/history", token: token).milliseconds }),
    ("sqlite3, the page's queries", { timed([sqlite3, "-init", pageScript, database, ".quit"], environment: environment) }),
]
for command in commands { _ = command.measure() }
var samples = Array(repeating: [Double](), count: commands.count)
let loadBefore = loadAverage()
for _ in 0..<options.runs {
    for (index, command) in commands.enumerated() { samples[index].append(command.measure()) }
}
print("\(options.runs) interleaved rounds, \(ProcessInfo.processInfo.activeProcessorCount) cores, load average \(loadBefore) before, \(loadAverage()) after; medians:")
for (index, command) in commands.enumerated() {
    let anchor = index % 2 == 0 ? median(samples[index + 1]) : median(samples[index])
    print(command.label.padding(toLength: 30, withPad: " ", startingAt: 0)
          + String(format: "%8.2f ms", median(samples[index]))
          + (index % 2 == 0 ? String(format: "   %.2fx sqlite3", median(samples[index]) / anchor) : ""))
}
