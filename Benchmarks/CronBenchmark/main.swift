import Foundation
import LanesCron

// `make bench-cron`: next-fire computations per second for lanes (release build) and, in the same
// run, for Python's croniter on the same schedules. croniter has no `H`, so it gets the values
// lanes resolved for the same seed, and `day_or=False` for Jenkins' day-of-month AND day-of-week.

struct Case {
    var name: String
    var spec: String
}

let seed = "nightly"
let cases = [
    Case(name: "H 0 * * 0-4", spec: "H 0 * * 0-4"),
    Case(name: "H/15 * * * *", spec: "H/15 * * * *"),
    Case(name: "0 0 29 2 1", spec: "0 0 29 2 1"),
    Case(name: "10-line spec", spec: """
        # nightly and office-hours jobs
        H 0 * * 0-4
        H/15 9-17 * * 1-5
        H H(0-5) 1 * *
        @daily
        30 2 * * 6
        H H * * 0
        0 12 15 * *
        H */4 * * *
        H(0-29) 22 * * 1-5
        H 6 1 1,4,7,10 *
        """),
]
let zones: [any CronTimeZone] = [FixedOffsetTimeZone.utc, SystemTimeZone(identifier: "America/New_York")!]
let startSecond = 1_767_225_600.0  // 2026-01-01T00:00:00Z
let stride = 7_919.0  // seconds between successive start instants: prime, so starts cover all minutes and weekdays

/// CPU time of this thread: on a shared machine it shows what one core does, whatever else runs.
func threadCPUSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_THREAD_CPUTIME_ID, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Runs `next` from successive start instants for about `seconds` and returns computations per
/// wall-clock second and per CPU second.
func measure(_ schedule: CronSchedule, zone: any CronTimeZone, seconds: Double) -> (wall: Double, cpu: Double, checksum: Double) {
    var iterations = 0
    var checksum = 0.0
    let begin = DispatchTime.now().uptimeNanoseconds
    let cpuBegin = threadCPUSeconds()
    var elapsed = 0.0
    var start = startSecond
    while elapsed < seconds {
        for _ in 0..<100_000 {
            if let next = schedule.nextFire(onOrAfter: CronInstant(secondsSince1970: start), defaultZone: zone) {
                checksum += next.secondsSince1970
            }
            start += stride
            if start > startSecond + 50 * 365 * 86_400 { start = startSecond }
        }
        iterations += 100_000
        elapsed = Double(DispatchTime.now().uptimeNanoseconds - begin) / 1e9
    }
    return (Double(iterations) / elapsed, Double(iterations) / (threadCPUSeconds() - cpuBegin), checksum)
}

func formatted(_ rate: Double) -> String {
    if rate >= 1e6 { return String(format: "%.1f million/s", rate / 1e6) }
    if rate >= 1e3 { return String(format: "%.1f thousand/s", rate / 1e3) }
    return String(format: "%.0f/s", rate)
}

/// A line of croniter expressions: lanes' resolved values written out as comma lists.
func croniterLines(_ schedule: CronSchedule) -> [String] {
    schedule.entries.map { entry in
        CronField.allCases.map { field in
            let values = entry.table.values(of: field)
            let full = field == .dayOfWeek ? Array(0...6) : Array(field.bounds)
            return values == full ? "*" : values.map(String.init).joined(separator: ",")
        }.joined(separator: " ")
    }
}

// Options: --only <case name>, --seconds <per measurement>, --no-croniter (for profiling).
let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let only = option("--only")
let measureSeconds = option("--seconds").flatMap(Double.init) ?? 1.0
let runCroniter = !arguments.contains("--no-croniter")

print("lanes cron benchmark — next-fire computations per second (seed \"\(seed)\", starts from 2026 every \(Int(stride)) s)")
print("")
print("(rates per wall-clock second, and per CPU second of the measuring thread: the machine is shared)")
var croniterInput: [[String: Any]] = []
var checksum = 0.0
for testCase in cases where only == nil || testCase.name == only {
    let schedule = try CronSchedule(parsing: testCase.spec, seed: seed)
    for zone in zones {
        let result = measure(schedule, zone: zone, seconds: measureSeconds)
        checksum += result.checksum
        let label = "\(testCase.name) [\(zone.identifier)]".padding(toLength: 38, withPad: " ", startingAt: 0)
        print("lanes     \(label) \(formatted(result.wall).padding(toLength: 16, withPad: " ", startingAt: 0)) \(formatted(result.cpu)) per CPU second")
    }
    croniterInput.append(["name": testCase.name, "lines": croniterLines(schedule)])
}

print("(checksum of all fire times: \(Int64(checksum.truncatingRemainder(dividingBy: 1e12))))")
print("")
fflush(nil)
guard runCroniter else { exit(0) }
print("croniter (PyPI) get_next on the same schedules, with lanes' resolved H values substituted:")
let script = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("croniter_bench.py")
fflush(nil)
let process = Process()
process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
process.arguments = ["python3", script.path]
let input = Pipe()
process.standardInput = input
do {
    try process.run()
    input.fileHandleForWriting.write(try JSONSerialization.data(withJSONObject: croniterInput))
    try input.fileHandleForWriting.close()
    process.waitUntilExit()
    if process.terminationStatus != 0 { print("croniter run failed (status \(process.terminationStatus)); is it installed? (make deps)") }
} catch {
    print("could not run python3 for croniter: \(error)")
}
