import LanesTestSupport
import Foundation
import LanesCron
import Testing
@testable import LanesSchedule

/// The scheduler over 1,000 simulated days with crashes between recording and launching and during
/// runs, and downtimes from minutes to days: every due instant is decided exactly once, launched at
/// most once, and run, caught up, skipped or missed as the policy says.
@Suite(.timeLimit(.minutes(3))) struct SchedulerSimulationTests {
    static let specs: [(name: String, spec: String, seed: String)] = [
        ("ny-gap", "TZ=America/New_York\n30 2 * * *", "ny-gap"),           // 02:30 does not exist on spring-forward day
        ("ny-repeat", "TZ=America/New_York\n30 1 * * *", "ny-repeat"),     // 01:30 happens twice on fall-back day
        ("sydney", "TZ=Australia/Sydney\n30 2 * * *", "sydney"),           // both, in October and April
        ("weeknights", "H 0 * * 0-4", "Brewer/developerRelease"),
        ("three-hourly", "H H/3 * * *", "three-hourly"),
    ]

    struct Launch: Hashable { let lane: String; let scheduled: CronInstant }

    @Test func thousandDaysWithCrashesDecideEveryInstantOnce() throws {
        let directory = try temporaryDirectory("simulation")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let zones = SystemTimeZoneResolver()
        let lanes = try Self.specs.map { lane in
            ScheduledLane(name: lane.name, timers: [try CronSchedule(parsing: lane.spec, seed: lane.seed, timeZones: zones)])
        }
        let start = instant("2025-01-01T00:00:00Z")
        let end = start.adding(seconds: 1_000 * 86_400)
        let clock = ManualClock(start)
        let policy = SchedulePolicy()
        var random = SplitMix64(seed: 20261123)

        var launches: [Launch: Int] = [:]
        var downtimes: [(from: CronInstant, to: CronInstant)] = []
        var crashesBeforeLaunch = 0, crashesDuringRuns = 0
        var running: [Int64: (lane: String, end: CronInstant)] = [:]
        var store = try HistoryStore(directory: directory)
        var scheduler = try Scheduler(lanes: lanes, store: store, clock: clock, defaultZone: FixedOffsetTimeZone.utc, policy: policy)
        _ = try scheduler.takeDueRuns()  // first start: cursors from now

        func crash() throws {
            let from = clock.now()
            // Mostly short outages, some over the one-day catch-up window.
            let seconds: Double = random.next() % 4 == 0 ? Double.random(in: 86_400...(3 * 86_400), using: &random)
                                                         : Double.random(in: 60...(6 * 3600), using: &random)
            clock.set(from.adding(seconds: seconds))
            downtimes.append((from, clock.now()))
            running.removeAll()  // the restarted daemon ends the previous daemon's process groups
            store = try HistoryStore(directory: directory)
            scheduler = try Scheduler(lanes: lanes, store: store, clock: clock, defaultZone: FixedOffsetTimeZone.utc, policy: policy)
            let interrupted = try scheduler.recoverInterruptedRuns()
            #expect(interrupted.allSatisfy { $0.status.isActive })
        }

        loop: while clock.now() < end {
            // A restarted daemon finds its next wake in the past: it decides at once.
            let due = scheduler.nextWake()!
            let wake = due < clock.now() ? clock.now() : due.adding(seconds: Double.random(in: 0...3, using: &random))
            if let (id, run) = running.min(by: { $0.value.end < $1.value.end }), run.end <= wake {
                clock.set(run.end)
                running[id] = nil
                try store.finish(id: id, status: random.next() % 5 == 0 ? .failed : .succeeded, exitStatus: 0, ended: clock.now())
                continue
            }
            guard wake < end else { break }
            clock.set(wake)
            for planned in try scheduler.takeDueRuns() {
                if random.next() % 100 == 0 {
                    crashesBeforeLaunch += 1
                    try crash()
                    continue loop
                }
                let key = Launch(lane: planned.lane, scheduled: planned.scheduled)
                #expect(!running.values.contains { $0.lane == planned.lane }, "overlapping runs of \(planned.lane)")
                launches[key, default: 0] += 1
                try store.markRunning(id: planned.id, processID: 4242, started: clock.now(), logPath: "/logs/\(planned.id).log")
                // Most runs are short; some outlast the next due instant of the three-hourly lane.
                let minutes = random.next() % 10 == 0 ? Double.random(in: 180...400, using: &random) : Double.random(in: 1...90, using: &random)
                running[planned.id] = (planned.lane, clock.now().adding(seconds: minutes * 60))
            }
            if !running.isEmpty, random.next() % 60 == 0 {
                crashesDuringRuns += 1
                try crash()
            }
        }

        // Launched at most once per due instant.
        #expect(launches.values.allSatisfy { $0 == 1 })
        let rows = try store.runs(limit: 1_000_000)
        #expect(try store.integrityCheck() == "ok")
        func down(_ instant: CronInstant) -> (from: CronInstant, to: CronInstant)? {
            downtimes.first { instant > $0.from && instant <= $0.to }
        }
        var statuses: [RunStatus: Int] = [:]
        for lane in lanes {
            // Every due instant from the start to the lane's cursor has exactly one row.
            let cursor = try #require(try store.cursor(lane: lane.name))
            let expected = lane.timers[0].fireTimes(onOrAfter: start.adding(seconds: 1), defaultZone: FixedOffsetTimeZone.utc, count: 10_000)
                .filter { $0 <= cursor }
            let laneRows = rows.filter { $0.lane == lane.name }.sorted { $0.scheduled! < $1.scheduled! }
            #expect(laneRows.map { $0.scheduled! } == expected, "\(lane.name): rows differ from due instants")
            for row in laneRows {
                statuses[row.status, default: 0] += 1
                let key = Launch(lane: row.lane, scheduled: row.scheduled!)
                let outage = down(row.scheduled!)
                switch row.status {
                case .missed:
                    // Missed only while down: beyond the window, or before the latest instant in it.
                    let outage = try #require(outage, "\(row.lane) \(row.scheduled!) missed while the daemon ran")
                    let later = laneRows.first { $0.scheduled! > row.scheduled! && $0.scheduled! <= outage.to }
                    #expect(outage.to.secondsSince1970 - row.scheduled!.secondsSince1970 > policy.catchUpWindow || later != nil)
                    #expect(launches[key] == nil)
                case .skipped:
                    #expect(launches[key] == nil)
                    #expect(row.note?.contains("still active") == true)
                case .interrupted where row.processID == nil:
                    #expect(launches[key] == nil, "a run interrupted before its start was launched")
                case .succeeded, .failed, .interrupted, .running:
                    #expect(launches[key] == 1)
                    // Late by more than the tolerance at the restart: a catch-up; else on time.
                    let late = outage.map { $0.to.secondsSince1970 - row.scheduled!.secondsSince1970 > policy.onTimeTolerance } ?? false
                    #expect((row.trigger == .catchUp) == late, "\(row.lane) \(row.scheduled!) \(row.trigger)")
                case .starting, .cancelled:
                    Issue.record("unexpected status \(row.status) for \(row.lane) \(row.scheduled!)")
                }
            }
            // After each outage, the latest instant within the window is not missed: it ran (or was skipped) as catch-up.
            for outage in downtimes {
                let inWindow = laneRows.filter {
                    $0.scheduled! > outage.from && $0.scheduled! <= outage.to
                        && outage.to.secondsSince1970 - $0.scheduled!.secondsSince1970 <= policy.catchUpWindow
                }
                if let latest = inWindow.last {
                    #expect(latest.status != .missed)
                    #expect(latest.trigger == .catchUp || outage.to.secondsSince1970 - latest.scheduled!.secondsSince1970 <= policy.onTimeTolerance)
                }
            }
        }
        // The simulation exercised every path (else it proves little).
        #expect(crashesBeforeLaunch > 10 && crashesDuringRuns > 10)
        for status in [RunStatus.succeeded, .failed, .missed, .skipped, .interrupted] { #expect(statuses[status, default: 0] > 0, "no \(status) run") }
        #expect(rows.contains { $0.trigger == .catchUp })
    }

    /// Daylight-saving days: one run on each local day, at the first instant after a gap and at the
    /// first of two repeated times.
    @Test func daylightSavingDaysRunOnce() throws {
        let directory = try temporaryDirectory("dst")
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let zones = SystemTimeZoneResolver()
        let lanes = try Self.specs.prefix(3).map { lane in
            ScheduledLane(name: lane.name, timers: [try CronSchedule(parsing: lane.spec, seed: lane.seed, timeZones: zones)])
        }
        let clock = ManualClock(instant("2025-01-01T00:00:00Z"))
        let store = try HistoryStore(directory: directory)
        let scheduler = try Scheduler(lanes: lanes, store: store, clock: clock, defaultZone: FixedOffsetTimeZone.utc)
        _ = try scheduler.takeDueRuns()
        var fired: [String: [CronInstant]] = [:]
        while let wake = scheduler.nextWake(), wake < instant("2026-01-01T00:00:00Z") {
            clock.set(wake)
            for run in try scheduler.takeDueRuns() {
                fired[run.lane, default: []].append(run.scheduled)
                try store.finish(id: run.id, status: .succeeded, exitStatus: 0, ended: clock.now())
            }
        }
        #expect(fired["ny-gap"]?.count == 365)
        #expect(fired["ny-repeat"]?.count == 365)
        #expect(fired["sydney"]?.count == 365)
        // 2025-03-09 New York: 02:30 does not exist; runs at 03:00 EDT (07:00 UTC).
        #expect(fired["ny-gap"]!.contains(instant("2025-03-09T07:00:00Z")))
        // 2025-11-02 New York: 01:30 happens twice; runs at the first (EDT, 05:30 UTC) only.
        #expect(fired["ny-repeat"]!.contains(instant("2025-11-02T05:30:00Z")))
        #expect(!fired["ny-repeat"]!.contains(instant("2025-11-02T06:30:00Z")))
        // 2025-10-05 Sydney: 02:30 does not exist; runs at 03:00 AEDT (2025-10-04 16:00 UTC).
        #expect(fired["sydney"]!.contains(instant("2025-10-04T16:00:00Z")))
        // 2025-04-06 Sydney: 02:30 happens twice; runs at the first (AEDT, 2025-04-05 15:30 UTC) only.
        #expect(fired["sydney"]!.contains(instant("2025-04-05T15:30:00Z")))
        #expect(!fired["sydney"]!.contains(instant("2025-04-05T16:30:00Z")))
    }
}
