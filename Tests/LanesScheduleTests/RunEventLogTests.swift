import Foundation
import LanesCron
import LanesTestSupport
import Testing
@testable import LanesSchedule

/// Issue 20: the history reads a run from its `events.jsonl` (the runner's `--json` events), never
/// from the text of its log: banners with `|`, tabs, escapes or 10,000 characters survive, a torn
/// last line is skipped, and what steps reported (version, build number, artifacts) reaches the row.
@Suite(.timeLimit(.minutes(3))) struct RunEventLogTests {
    static func line(_ object: [String: Any]) throws -> String {
        String(decoding: try JSONSerialization.data(withJSONObject: object, options: [.sortedKeys]), as: UTF8.self)
    }

    static func events(banner: String) throws -> String {
        try [
            ["event": "lane_started", "lane": "release", "time": "2026-11-21T20:43:56.123Z", "trigger": "ci", "commit": "0123456789abcdef0123456789abcdef01234567"],
            ["event": "step_started", "step": 1, "id": "sh", "banner": banner, "time": "2026-11-21T20:43:56.200Z"],
            ["event": "output", "step": 1, "line": "b"],
            ["event": "output_batch", "step": 1, "text": "c\n\nd\n"],
            ["event": "step_finished", "step": 1, "id": "sh", "duration_ms": 50, "result": "ok"],
            ["event": "step_started", "step": 2, "id": "build_app", "banner": "Build Brewer", "time": "2026-11-21T20:43:57.000Z"],
            ["event": "step_finished", "step": 2, "id": "build_app", "duration_ms": 1200, "result": "ok",
             "reported": ["version": "2.1.0", "build_number": "42", "artifacts": ["build/Brewer.ipa", "build/Brewer.dSYM.zip"]]],
            ["event": "step_started", "step": 3, "id": "sh", "banner": "exit 3", "time": "2026-11-21T20:43:58.000Z"],
            ["event": "step_finished", "step": 3, "id": "sh", "duration_ms": 7, "result": "failed", "error": "exit status 3"],
            ["event": "lane_finished", "lane": "release", "result": "failed", "duration_ms": 2000, "steps": 3, "error": "step 3 failed"],
        ].map(line).joined(separator: "\n") + "\n{\"event\":\"outp"  // torn by a kill mid-write
    }

    @Test func stepsAndFactsComeFromTheEvents() throws {
        let banner = "sh -c echo a | tr a b\t\"quoted\" \\ " + String(repeating: "long|", count: 2_000)
        let log = RunEventLog(bytes: Array(try Self.events(banner: banner).utf8))
        #expect(log.lane == "release" && log.trigger == "ci" && log.commit?.count == 40)
        #expect(log.steps.map(\.banner) == [banner, "Build Brewer", "exit 3"])
        #expect(log.steps.map(\.succeeded) == [true, true, false])
        #expect(log.steps.last?.error == "exit status 3")
        #expect(log.version == "2.1.0" && log.buildNumber == "42")
        #expect(log.artifacts == ["build/Brewer.ipa", "build/Brewer.dSYM.zip"])
        #expect(log.succeeded == false && log.error == "step 3 failed")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let expected = try #require(formatter.date(from: "2026-11-21T20:43:56.123Z")).timeIntervalSince1970
        #expect(abs((log.startedSeconds ?? 0) - expected) < 0.0005)
        #expect(log.lines.contains("b"))
        let output = log.lines.drop { $0 != "b" }.prefix(4)
        #expect(Array(output) == ["b", "c", "", "d"], "a batch's lines, its empty line kept")
    }

    @Test func outsideRunsAreIndexedOnceAndARunningOneWaits() throws {
        let root = try temporaryDirectory("events")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try HistoryStore(directory: root)
        let logs = root + "/logs"
        let finished = logs + "/run-001795293836123-4242"
        let running = logs + "/run-001795293899000-4343"
        for folder in [finished, running] { try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true) }
        try Self.events(banner: "echo a | tr a b").write(toFile: finished + "/events.jsonl", atomically: true, encoding: .utf8)
        try Self.line(["event": "lane_started", "lane": "slow", "time": "2026-11-21T20:44:59.000Z", "trigger": "manual"])
            .write(toFile: running + "/events.jsonl", atomically: true, encoding: .utf8)

        #expect(try store.indexOutsideRuns(in: logs) { $0 == 4343 } == 1)
        #expect(try store.indexOutsideRuns(in: logs) { $0 == 4343 } == 0)  // not twice
        let run = try #require(try store.runs(lane: "release").first)
        #expect(run.trigger == .ci && run.status == .failed && run.error == "step 3 failed")
        #expect(run.steps.map(\.banner) == ["echo a | tr a b", "Build Brewer", "exit 3"])
        #expect(run.version == "2.1.0" && run.buildNumber == "42" && run.artifacts.count == 2)
        #expect(run.eventsPath == finished + "/events.jsonl")
        #expect(try store.runs(lane: "slow").isEmpty)  // still running

        // Its process gone without a last event: recorded interrupted.
        #expect(try store.indexOutsideRuns(in: logs) { _ in false } == 1)
        #expect(try store.runs(lane: "slow").first?.status == .interrupted)
    }
}

/// The page's filters are SQL over indexes (lane names by skip-scan, status, Poll SCM checks left
/// out), and give what filtering every run by hand gave.
@Suite struct HistoryQueryTests {
    @Test func filtersAgreeWithFilteringEveryRun() throws {
        let root = try temporaryDirectory("queries")
        defer { try? FileManager.default.removeItem(atPath: root) }
        let store = try HistoryStore(directory: root)
        var random = SplitMix64(seed: 36)
        let lanes = ["beta", "nightly", "release", "a lane with spaces", "Z"]
        let triggers: [RunTrigger] = [.timer, .poll, .manual, .poll]
        let statuses: [RunStatus] = [.succeeded, .failed, .skipped, .succeeded, .missed]
        let runs = (0..<600).map { _ in
            NewRun(lane: lanes.randomElement(using: &random)!, trigger: triggers.randomElement(using: &random)!,
                   scheduled: nil, status: statuses.randomElement(using: &random)!)
        }
        _ = try store.record(runs, cursors: [:])
        let all = try store.runs(limit: 10_000)
        #expect(all.count == 600)
        #expect(try store.laneNames() == Set(lanes).sorted())
        for lane in lanes + [nil] as [String?] {
            for status in [nil, .failed, .missed] as [RunStatus?] {
                for excludingPolls in [false, true] {
                    let expected = all.filter { run in
                        (lane == nil || run.lane == lane) && (status == nil || run.status == status) && (!excludingPolls || run.trigger != .poll)
                    }.prefix(30).map(\.id)
                    let found = try store.runs(lane: lane, limit: 30, status: status, excludingPolls: excludingPolls).map(\.id)
                    #expect(found == Array(expected), "lane \(lane ?? "-"), status \(status?.rawValue ?? "-"), excludingPolls \(excludingPolls)")
                }
            }
        }
    }
}
