import Foundation
import LanesCron
import Synchronization

// `make fuzz-cron`: feeds the schedule parser and the fire-time search a million (or --count N)
// generated and mutated inputs. It fails on a crash (the process dies), a hang (no progress for
// 10 s: the watchdog prints the input and exits 3) or a broken invariant (exit 1): an accepted
// schedule's fire times must be increasing, at or after the start, and match the resolved table.

let arguments = CommandLine.arguments
func option(_ name: String) -> String? {
    arguments.firstIndex(of: name).flatMap { arguments.indices.contains($0 + 1) ? arguments[$0 + 1] : nil }
}
let total = option("--count").flatMap(Int.init) ?? 1_000_000
var random = FuzzRandom(seed: option("--seed").flatMap(UInt64.init) ?? 20_261_121)

let corpusURL = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
    .appendingPathComponent("../../Tests/LanesCronTests/Fixtures/vectors.jsonl").standardizedFileURL
let corpus: [String] = {
    guard let text = try? String(contentsOf: corpusURL, encoding: .utf8) else { return [] }
    return text.split(separator: "\n").compactMap { line in
        (try? JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])?["spec"] as? String
    }
}() + ["H 0 * * 0-4", "H/15 * * * *", "TZ=Europe/London\n@daily", "0 0 29 2 1", "* * * * *"]

let progress = Atomic<Int>(0)
let current = Mutex<String>("")
let watchdog = Thread {
    var last = -1
    while true {
        Thread.sleep(forTimeInterval: 10)
        let now = progress.load(ordering: .relaxed)
        if now == last {
            let input = current.withLock { $0 }
            FileHandle.standardError.write(Data("HANG after \(now) inputs on \(input.debugDescription)\n".utf8))
            exit(3)
        }
        last = now
    }
}
watchdog.start()

let zones = SystemTimeZoneResolver()
let newYork = zones.timeZone(identifier: "America/New_York")!
let checkedZones: [any CronTimeZone] = [FixedOffsetTimeZone.utc, newYork]
let seeds: [String?] = [nil, "", "nightly", "folder/sub folder/My Job", "日本語ジョブ"]
var accepted = 0
var rejected = 0
var slowest = (seconds: 0.0, input: "")
let began = Date()

for index in 0..<total {
    let input = FuzzInputs.next(corpus: corpus, random: &random)
    current.withLock { $0 = input }
    let inputBegan = DispatchTime.now().uptimeNanoseconds
    do {
        let schedule = try CronSchedule(parsing: input, seed: seeds[Int(random.next() % UInt64(seeds.count))], timeZones: zones)
        accepted += 1
        let zone = schedule.timeZone ?? checkedZones[index % 2]
        let start = CronInstant(secondsSince1970: Double(random.next() % 4_102_444_800))  // before 2100
        let times = schedule.fireTimes(onOrAfter: start, defaultZone: zone, count: 3)
        FuzzChecks.fireTimes(times, of: schedule, from: start, zone: zone, input: input)
    } catch {
        rejected += 1
        FuzzChecks.error(error, input: input)
    }
    let seconds = Double(DispatchTime.now().uptimeNanoseconds - inputBegan) / 1e9
    if seconds > slowest.seconds { slowest = (seconds, input) }
    progress.store(index + 1, ordering: .relaxed)
}

let elapsed = Date().timeIntervalSince(began)
print("cron fuzz: \(total) inputs in \(String(format: "%.1f", elapsed)) s (\(Int(Double(total) / elapsed)) per second)")
print("  accepted \(accepted), rejected \(rejected), no crash, no hang, invariants held")
print("  slowest input \(String(format: "%.2f", slowest.seconds * 1000)) ms: \(slowest.input.debugDescription)")
