import Foundation
import LanesTestSupport
import Testing

/// `lanes daemon` in real time: a `* * * * *` lane fires within a few seconds of the minute and shows
/// up in `lanes history`; a Lanefile edit is picked up and a broken one keeps the previous version;
/// SIGTERM cancels running lanes after the grace period; after kill -9 a new daemon starts. Every
/// test runs under the OS's own event backend and under the portable one (`LANES_EVENT_BACKEND`).
@Suite(.serialized) struct DaemonTests {
    static let backends = ["native", "portable"]

    static func history(_ lanes: LanesProcess, _ project: URL, state: String) throws -> [[String: Any]] {
        let result = try lanes.run(["history", "--json", "--state-dir", state], in: project)
        #expect(result.status == 0, "\(result.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    }

    @Test(arguments: backends) func firesOnTheMinuteReloadsAndStopsCleanly(backend: String) throws {
        let project = try LanesProcess.project("daemon")
        let state = project.appendingPathComponent("state").path
        var lanes = LanesProcess()
        lanes.environment["LANES_EVENT_BACKEND"] = backend
        #expect(try lanes.run(["list"], in: project).status == 0)  // compile before the clock matters
        // Leave time before the minute for the edits below.
        while Calendar.current.component(.second, from: Date()) > 40 { Thread.sleep(forTimeInterval: 1) }

        let daemon = try lanes.start(["daemon", "--state-dir", state, "--grace", "2"], in: project)
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        let original = try String(contentsOf: lanefile, encoding: .utf8)
        Thread.sleep(forTimeInterval: 1)
        try "import Lanes\nlet lanes = Lanefile { Lane(\"tick\" }\n".write(to: lanefile, atomically: true, encoding: .utf8)
        Thread.sleep(forTimeInterval: 4)
        let withTock = original.replacingOccurrences(of: "    .schedule(\"* * * * *\")\n",
                                                     with: "    .schedule(\"* * * * *\")\n    Lane(\"tock\", \"Also every minute\") { print(\"tock\") }.schedule(\"* * * * *\")\n")
        try withTock.write(to: lanefile, atomically: true, encoding: .utf8)

        var runs: [[String: Any]] = []
        let deadline = Date().addingTimeInterval(80)
        while Date() < deadline {
            runs = try Self.history(lanes, project, state: state)
            if Set(runs.compactMap { $0["lane"] as? String }) == ["tick", "tock"] { break }
            Thread.sleep(forTimeInterval: 1)
        }
        kill(daemon.process.processIdentifier, SIGTERM)
        let stopped = daemon.finish()
        #expect(stopped.status == 0, "\(stopped.output)")
        #expect(stopped.standardError.contains("Lanefile changed but cannot be used; keeping the previous version"), "\(stopped.standardError)")
        #expect(stopped.standardError.contains("Lanefile changed: now scheduling 2 lane(s)"))
        // The compile error names the user's Lanefile, not the daemon's copy of it.
        #expect(stopped.standardError.contains(lanefile.path + ":2:"), "\(stopped.standardError)")
        #expect(!stopped.standardError.contains("candidate/Lanefile.swift:"))
        // Each run has its folder with its events beside its log.
        for folder in try FileManager.default.contentsOfDirectory(atPath: state + "/logs") {
            #expect(FileManager.default.fileExists(atPath: "\(state)/logs/\(folder)/events.jsonl"), "\(folder)")
        }

        runs = try Self.history(lanes, project, state: state)
        let tick = try #require(runs.first { $0["lane"] as? String == "tick" }, "no tick run: \(stopped.output)")
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        func date(_ value: Any?) -> Date? { (value as? String).flatMap { formatter.date(from: $0) ?? plain.date(from: $0) } }
        let scheduled = try #require(date(tick["scheduled"]))
        let started = try #require(date(tick["started"]))
        #expect(started.timeIntervalSince(scheduled) >= 0 && started.timeIntervalSince(scheduled) < 3, "started \(started) for \(scheduled)")
        #expect(tick["trigger"] as? String == "timer")
        #expect(tick["status"] as? String == "cancelled")  // still waiting when SIGTERM came
        #expect(runs.filter { $0["lane"] as? String == "tick" }.count <= 2)
        let tock = try #require(runs.first { $0["lane"] as? String == "tock" })
        #expect(tock["status"] as? String == "succeeded")
        let log = try lanes.run(["logs", String(try #require(tick["id"] as? Int)), "--state-dir", state], in: project)
        #expect(log.status == 0 && log.standardOutput.contains("tick"), "\(log.output)")

        // kill -9: the lock dies with the process; the next daemon starts.
        let first = try lanes.start(["daemon", "--state-dir", state], in: project)
        Thread.sleep(forTimeInterval: 1.5)
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.finish()
        let second = try lanes.start(["daemon", "--state-dir", state], in: project)
        Thread.sleep(forTimeInterval: 1.5)
        kill(second.process.processIdentifier, SIGTERM)
        let secondResult = second.finish()
        #expect(secondResult.status == 0, "\(secondResult.output)")
        #expect(secondResult.standardError.contains("scheduling 2 lane(s)"))
    }

    @Test(arguments: backends) func aSecondDaemonIsRefused(backend: String) throws {
        let project = try LanesProcess.project("daemon")
        let state = project.appendingPathComponent("state").path
        var lanes = LanesProcess()
        lanes.environment["LANES_EVENT_BACKEND"] = backend
        let first = try lanes.start(["daemon", "--state-dir", state], in: project)
        defer {
            kill(first.process.processIdentifier, SIGTERM)
            _ = first.finish()
        }
        Thread.sleep(forTimeInterval: 3)
        let second = try lanes.run(["daemon", "--state-dir", state], in: project)
        #expect(second.status == 78)
        #expect(second.standardError.contains("another lanes daemon (pid \(first.process.processIdentifier)) already runs"), "\(second.output)")
    }

    /// The first log line names the backend; once the loop runs, SIGTERM ends an idle daemon within a second.
    @Test(arguments: backends) func namesItsBackendAndStopsWithinASecondOfSIGTERM(backend: String) throws {
        let project = try LanesProcess.project("daemon")
        let state = project.appendingPathComponent("state").path
        let log = project.appendingPathComponent("daemon.stderr").path
        var lanes = LanesProcess()
        lanes.environment["LANES_EVENT_BACKEND"] = backend
        #expect(try lanes.run(["list"], in: project).status == 0)
        // Through sh, so the daemon's standard error is a file this test can read while it runs.
        let daemon = try lanes.start(["-c", #"exec "$0" daemon --state-dir "$1" --grace 0 2>"$2""#, LanesProcess.executable, state, log],
                                     in: project, executable: "/bin/sh")
        defer { kill(daemon.process.processIdentifier, SIGKILL) }
        let deadline = Date().addingTimeInterval(120)
        var text = ""
        while !text.contains("scheduling 1 lane(s)"), Date() < deadline {
            Thread.sleep(forTimeInterval: 0.05)  // waiting for the line, not for time
            text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        // The daemon's own first line (the driver may first say it compiles the daemon's Lanefile copy).
        let firstLine = text.split(separator: "\n").first { $0.hasPrefix("lanes daemon ") }.map(String.init) ?? ""
        #expect(firstLine.contains("event backend: "), "\(text)")
        #expect(firstLine.contains("portable") == (backend == "portable"), "\(text)")
        let signalled = Date()
        kill(daemon.process.processIdentifier, SIGTERM)
        let stopped = daemon.finish()
        let elapsed = Date().timeIntervalSince(signalled)
        #expect(stopped.status == 0, "\(stopped.output)")
        #expect(elapsed < 1, "stopped \(elapsed) s after SIGTERM")
    }
}
