import LanesTestSupport
import Foundation
import LanesCron
import LanesPlatform
import Testing
@testable import LanesSchedule

/// kill -9 of the scheduler process at random moments, 100 times: no due run lost or doubled and
/// the database never corrupt. The process is ScheduleCrashHelper: the scheduler core and the real
/// SQLite file on a clock that runs ten minutes per second, so each short life decides many instants.
@Suite(.timeLimit(.minutes(3))) struct KillTests {
    static let helper = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent(".build/debug/ScheduleCrashHelper").path

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: helper), "run `swift build` first (make test does)"))
    func killNineAHundredTimesLosesAndDoublesNothing() throws {
        let root = try temporaryDirectory("kill", preferMemory: false)
        defer { try? FileManager.default.removeItem(atPath: root) }
        let state = root + "/state", launches = root + "/launches"
        let base = Date().timeIntervalSince1970
        // The kill moments come from this seed; LANES_KILL_SEED replays a failing run's moments.
        let seed = ProcessInfo.processInfo.environment["LANES_KILL_SEED"].flatMap { UInt64($0) } ?? UInt64(base)
        print("KillTests seed \(seed) (replay with LANES_KILL_SEED=\(seed))")
        var random = SplitMix64(seed: seed)
        var kills = 0
        for _ in 0..<100 {
            var pid: pid_t = 0
            let words: [String] = [Self.helper, state, launches, String(base)]
            let argv: [UnsafeMutablePointer<CChar>?] = words.map { strdup($0) } + [nil]
            defer { argv.forEach { free($0) } }
            try #require(posix_spawn(&pid, Self.helper, nil, nil, argv, ProcessEnvironment.block) == 0)
            usleep(UInt32.random(in: 5_000...150_000, using: &random))
            kill(pid, SIGKILL)
            var status: Int32 = 0
            waitpid(pid, &status, 0)
            if status & 0x7F == SIGKILL { kills += 1 }
            let store = try HistoryStore(directory: state)
            #expect(try store.integrityCheck() == "ok")
            usleep(UInt32.random(in: 0...80_000, using: &random))  // downtime: a simulated minute per 100 ms
            // Every tenth life also stays down for two simulated minutes, longer than the on-time
            // tolerance, so the restart policy (catch-up or missed) is always exercised, whatever the
            // machine's speed.
            if kills % 10 == 0 { usleep(200_000) }
        }
        #expect(kills == 100, "the helper ended by itself (did it crash?)")

        let store = try HistoryStore(directory: state)
        let rows = try store.runs(limit: 10_000_000)
        let launchLines = try String(contentsOfFile: launches, encoding: .utf8).split(separator: "\n").map(String.init)
        // Never launched twice.
        #expect(Set(launchLines).count == launchLines.count, "a due run was launched twice")
        #expect(launchLines.count > 100, "too few launches to prove anything")
        // Every due instant from each lane's first cursor to its last has exactly one row.
        for index in 0..<4 {
            let lane = "lane\(index)"
            let spec = ["* * * * *", "H/5 * * * *", "H/2 * * * *", "*/3 * * * *"][index]
            let schedule = try CronSchedule(parsing: spec, seed: lane)
            let cursor = try #require(try store.cursor(lane: lane))
            let laneRows = rows.filter { $0.lane == lane }
            let decided = Set(laneRows.compactMap(\.scheduled))
            #expect(decided.count == laneRows.count)
            let earliest = try #require(decided.min())
            let expected = schedule.fireTimes(onOrAfter: earliest, defaultZone: FixedOffsetTimeZone.utc, count: 1_000_000).prefix { $0 <= cursor }
            #expect(Set(expected) == decided, "\(lane): due instants without a row, or rows without a due instant")
            // A succeeded row was launched; a launched instant has a row that ran or was interrupted.
            let launched = Set(launchLines.filter { $0.hasPrefix(lane + " ") }.map { Double($0.split(separator: " ")[1])! })
            for row in laneRows {
                let wasLaunched = launched.contains(row.scheduled!.secondsSince1970)
                switch row.status {
                case .succeeded: #expect(wasLaunched)
                case .missed, .skipped: #expect(!wasLaunched)
                case .interrupted, .starting, .running: break  // killed between recording, launching and finishing
                default: Issue.record("unexpected status \(row.status)")
                }
            }
        }
        // The long downtimes exercised the restart policy (SchedulerSimulationTests pins missed and
        // catch-up deterministically; here it is enough that one of them happened).
        #expect(rows.contains { $0.status == .missed } || rows.contains { $0.trigger == .catchUp })
    }
}
