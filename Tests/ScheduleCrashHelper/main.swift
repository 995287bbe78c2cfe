// The scheduler core as `lanes daemon` runs it, on a clock 600 times faster than real time, for
// the kill -9 test: it records due runs in the real SQLite file, appends each launch to a file
// (the evidence that a run started), and finishes runs at once. The test kills it at random moments.
import Foundation
import LanesCron
import LanesSchedule

/// Simulated time: one real second is ten minutes, counted from the real instant in `base`.
struct FastClock: CronClock {
    let base: Double
    func now() -> CronInstant {
        CronInstant(secondsSince1970: 1_800_000_000 + (Date().timeIntervalSince1970 - base) * 600)
    }
}

let arguments = CommandLine.arguments
let state = arguments[1], launches = arguments[2], base = Double(arguments[3])!
let clock = FastClock(base: base)
let store = try HistoryStore(directory: state)
let lanes = try ["* * * * *", "H/5 * * * *", "H/2 * * * *", "*/3 * * * *"].enumerated().map { index, spec in
    ScheduledLane(name: "lane\(index)", timers: [try CronSchedule(parsing: spec, seed: "lane\(index)")])
}
let scheduler = try Scheduler(lanes: lanes, store: store, clock: clock, defaultZone: FixedOffsetTimeZone.utc,
                              policy: SchedulePolicy(catchUpWindow: 600, onTimeTolerance: 60))
_ = try scheduler.recoverInterruptedRuns()
let launchLog = open(launches, O_WRONLY | O_CREAT | O_APPEND, 0o644)
while true {
    for run in try scheduler.takeDueRuns() {
        let line = Array("\(run.lane) \(run.scheduled.secondsSince1970)\n".utf8)
        _ = line.withUnsafeBytes { write(launchLog, $0.baseAddress, $0.count) }
        try store.markRunning(id: run.id, processID: getpid(), started: clock.now(), logPath: "/dev/null")
        try store.finish(id: run.id, status: .succeeded, exitStatus: 0, ended: clock.now())
    }
    let wait = (scheduler.nextWake()!.secondsSince1970 - clock.now().secondsSince1970) / 600
    if wait > 0 { usleep(UInt32(wait * 1_000_000)) }
}
