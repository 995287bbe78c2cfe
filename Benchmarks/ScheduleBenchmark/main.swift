// Figures for `lanes daemon` with 10,000 scheduled lanes (make bench-schedule):
// 1. the time to parse every schedule and to compute every lane's next due time;
// 2. the daemon's CPU time and wake-ups (context switches) over 60 idle seconds, read from
//    /proc/PID/stat and /proc/PID/status of a child running the real `Daemon` loop;
// 3. how late fires are: 100 of the lanes due on the next minute, started as /bin/true children.
import Foundation
import LanesCron
import LanesPlatform
import LanesSchedule

let laneCount = 10_000
let zones = ["UTC", "America/New_York", "Europe/Berlin", "Asia/Taipei", "Australia/Sydney"]
let shapes = ["H H * * *", "H/15 * * * *", "H H(0-7) * * 1-5", "H 0 * * 0-4", "H H * * 0", "H H 1,15 * *"]

func specs(idleHour: Int?, dueEveryMinute: Int) -> [(name: String, spec: String)] {
    (0..<laneCount).map { index in
        let name = "lane\(index)"
        if index < dueEveryMinute { return (name, "* * * * *") }
        if let idleHour { return (name, "H \(idleHour) * * *") }  // never due within the idle minute
        return (name, "TZ=\(zones[index % zones.count])\n\(shapes[index % shapes.count])")
    }
}

func parse(_ specs: [(name: String, spec: String)]) throws -> [ScheduledLane] {
    let resolver = SystemTimeZoneResolver()
    return try specs.map { ScheduledLane(name: $0.name, timers: [try CronSchedule(parsing: $0.spec, seed: $0.name, timeZones: resolver)]) }
}

func milliseconds(_ duration: Duration) -> String {
    String(format: "%.1f ms", Double(duration.components.seconds) * 1000 + Double(duration.components.attoseconds) / 1e15)
}

/// The child: the real daemon loop over the real host, children are /bin/true.
func runDaemon(state: String, mode: String) async throws -> Never {
    let hour = (Calendar(identifier: .gregorian).dateComponents(in: TimeZone(identifier: "UTC")!, from: Date()).hour! + 12) % 24
    let lanes = try parse(mode == "idle" ? specs(idleHour: hour, dueEveryMinute: 0) : specs(idleHour: hour, dueEveryMinute: 100))
    let store = try HistoryStore(directory: state)
    let launcher = ProcessRunLauncher(lanesExecutable: "/bin/true", projectDirectory: state, lanefile: nil, environment: [:])
    let daemon = try await Daemon(store: store, logDirectory: state + "/logs", host: SystemHost(), defaultZone: FixedOffsetTimeZone.utc,
                                  poller: nil, lanefile: nil, load: { (lanes, launcher) }, report: { _ in })
    FileHandle.standardOutput.write(Data("ready\n".utf8))
    try await daemon.run()
    exit(0)
}

struct ProcessSample {
    let cpuSeconds: Double
    let voluntary: Int
    let involuntary: Int

    init(pid: Int32) throws {
        let stat = try String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8)
        let fields = stat[stat.range(of: ")")!.upperBound...].split(separator: " ")
        let ticks = Double(sysconf(Int32(_SC_CLK_TCK)))
        cpuSeconds = (Double(fields[11])! + Double(fields[12])!) / ticks  // utime, stime (fields 14, 15)
        let status = try String(contentsOfFile: "/proc/\(pid)/status", encoding: .utf8).split(separator: "\n")
        func value(_ key: String) -> Int { Int(status.first { $0.hasPrefix(key) }!.split(separator: "\t").last!.trimmingCharacters(in: .whitespaces))! }
        voluntary = value("voluntary_ctxt_switches:")
        involuntary = value("nonvoluntary_ctxt_switches:")
    }
}

/// Starts this benchmark as a daemon child; returns its pid once it is ready.
func startChild(state: String, mode: String) throws -> Process {
    let child = Process()
    child.executableURL = URL(fileURLWithPath: CommandLine.arguments[0])
    child.arguments = ["--daemon", state, mode]
    let pipe = Pipe()
    child.standardOutput = pipe
    try child.run()
    _ = pipe.fileHandleForReading.availableData  // "ready"
    return child
}

if CommandLine.arguments.count == 4, CommandLine.arguments[1] == "--daemon" {
    // The daemon exits this process when it stops; until then this thread only waits.
    Task { try await runDaemon(state: CommandLine.arguments[2], mode: CommandLine.arguments[3]) }
    while true { _ = sleep(3600) }
}

let idleSeconds = Double(ProcessInfo.processInfo.environment["IDLE_SECONDS"] ?? "60")!
let clock = ContinuousClock()
print("lanes daemon with \(laneCount) scheduled lanes (\(ProcessInfo.processInfo.activeProcessorCount) cores)")

// 1. Next due times.
let mixed = specs(idleHour: nil, dueEveryMinute: 0)
var lanes: [ScheduledLane] = []
let parseTime = try clock.measure { lanes = try parse(mixed) }
print("  parse every schedule (H hashed per lane):     \(milliseconds(parseTime))")
let now = SystemCronClock().now()
var earliest = CronInstant(secondsSince1970: .infinity)
let nextTime = clock.measure {
    for lane in lanes {
        for schedule in lane.timers {
            if let next = schedule.nextFire(after: now, defaultZone: FixedOffsetTimeZone.utc), next < earliest { earliest = next }
        }
    }
}
print("  next due time of every lane:                  \(milliseconds(nextTime)) (earliest \(earliest))")
let directory = NSTemporaryDirectory() + "lanes-bench-schedule-\(getpid())"
defer { try? FileManager.default.removeItem(atPath: directory) }
let store = try HistoryStore(directory: directory + "/core")
var scheduler = try Scheduler(lanes: lanes, store: store, clock: SystemCronClock(), defaultZone: FixedOffsetTimeZone.utc)
let firstDecision = try clock.measure { _ = try scheduler.takeDueRuns() }
print("  first decision (10,000 cursors in one transaction): \(milliseconds(firstDecision))")
let restart = try clock.measure {
    scheduler = try Scheduler(lanes: lanes, store: store, clock: SystemCronClock(), defaultZone: FixedOffsetTimeZone.utc)
}
print("  restart (read 10,000 cursors):                \(milliseconds(restart))")
let wakeTime = clock.measure { _ = scheduler.nextWake() }
print("  Scheduler.nextWake() over every lane, cold:   \(milliseconds(wakeTime))")
let warmWake = clock.measure { _ = scheduler.nextWake() }
print("  Scheduler.nextWake() over every lane, cached: \(milliseconds(warmWake))")

// 2. Idle daemon.
let idle = try startChild(state: directory + "/idle", mode: "idle")
Thread.sleep(forTimeInterval: 2)  // past the first decision
let before = try ProcessSample(pid: idle.processIdentifier)
Thread.sleep(forTimeInterval: idleSeconds)
let after = try ProcessSample(pid: idle.processIdentifier)
idle.terminate()
idle.waitUntilExit()
print("  idle \(Int(idleSeconds)) s: CPU \(String(format: "%.3f", after.cpuSeconds - before.cpuSeconds)) s, "
      + "voluntary context switches \(after.voluntary - before.voluntary), involuntary \(after.involuntary - before.involuntary) "
      + "(target: 0 wake-ups between due times)")

// 3. Lateness: 100 lanes due on the next minute.
let firing = try startChild(state: directory + "/fire", mode: "fire")
let secondsToMinute = 60 - Date().timeIntervalSince1970.truncatingRemainder(dividingBy: 60)
Thread.sleep(forTimeInterval: secondsToMinute + 3)
firing.terminate()
firing.waitUntilExit()
let runs = try HistoryStore(directory: directory + "/fire").runs(limit: 1000).filter { $0.started != nil }
let lateness = runs.map { $0.started!.secondsSince1970 - $0.scheduled!.secondsSince1970 }.sorted()
if lateness.isEmpty {
    print("  lateness: no run started (the minute was missed?)")
} else {
    print("  lateness of \(lateness.count) fires due on the same minute: first \(String(format: "%.3f", lateness[0])) s, "
          + "median \(String(format: "%.3f", lateness[lateness.count / 2])) s, last \(String(format: "%.3f", lateness.last!)) s (target: < 1 s)")
}
