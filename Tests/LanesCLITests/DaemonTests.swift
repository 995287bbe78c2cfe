import Foundation
import LanesTestSupport
import Testing

/// `lanes daemon`: a `* * * * *` lane fires on the minute of an injected clock and shows up in
/// `lanes history`; a Lanefile edit is picked up and a broken one keeps the previous version;
/// SIGTERM cancels running lanes after the grace period; after kill -9 a new daemon starts. The tests
/// wait on the daemon's log lines and history, never on the real clock's minute. Every test runs
/// under the OS's own event backend and under the portable one (`LANES_EVENT_BACKEND`).
@Suite(.serialized) struct DaemonTests {
    static let backends = ["native", "portable"]

    static func history(_ lanes: LanesProcess, _ project: URL, state: String) throws -> [[String: Any]] {
        let result = try lanes.run(["history", "--json", "--state-dir", state], in: project)
        #expect(result.status == 0, "\(result.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    }

    /// Starts `lanes daemon` with its standard error in a file this test reads while it runs.
    static func startDaemon(_ lanes: LanesProcess, project: URL, state: String, log: String, grace: String = "2") throws -> LanesProcess.Running {
        try lanes.start(["-c", #"exec "$0" daemon --state-dir "$1" --grace "$3" 2>"$2""#, LanesProcess.executable, state, log, grace],
                        in: project, executable: "/bin/sh")
    }

    /// Waits for the daemon's log to say `line` (the event), at most `seconds`; returns the log.
    @discardableResult
    static func waitForLine(_ line: String, in log: String, count: Int = 1, seconds: Double = 120) -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        while Date() < deadline {
            text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if text.components(separatedBy: line).count - 1 >= count { return text }
            Thread.sleep(forTimeInterval: 0.05)  // polling the file for the line, not waiting for time
        }
        return text
    }

    /// The timer side of the daemon on an injected clock (DaemonClockHelper: the real loop, event
    /// backend, launcher and history, on a clock that starts 2 s before a minute): the `* * * * *`
    /// lane starts on that minute, is in the history as a timer run with its log and events, and a
    /// SIGTERM while it runs records it cancelled. No wait for the real clock's minute.
    @Test(arguments: backends) func firesOnTheMinuteOfAnInjectedClock(backend: String) throws {
        let project = try LanesProcess.project("daemon")
        let state = project.appendingPathComponent("state").path
        let log = project.appendingPathComponent("daemon.stderr").path
        var lanes = LanesProcess()
        lanes.environment["LANES_EVENT_BACKEND"] = backend
        #expect(try lanes.run(["list"], in: project).status == 0)  // compile before the clock matters
        let helper = LanesProcess.repositoryRoot.appendingPathComponent(".build/debug/DaemonClockHelper").path
        let daemon = try lanes.start(["-c", #"exec "$0" "$1" "$2" "$3" 2 2>"$4""#, helper, state, project.path, LanesProcess.executable, log],
                                     in: project, executable: "/bin/sh")
        defer { kill(daemon.process.processIdentifier, SIGKILL) }
        // The lane's own output in its run log is the event: it started.
        var tick: [String: Any]?
        let deadline = Date().addingTimeInterval(60)
        while tick == nil, Date() < deadline {
            Self.waitForLine("run 1 ", in: log, seconds: 0.5)
            let runs = try Self.history(lanes, project, state: state)
            if let run = runs.first(where: { $0["lane"] as? String == "tick" }),
               let id = run["id"] as? Int,
               (try? lanes.run(["logs", String(id), "--state-dir", state], in: project).standardOutput.contains("tick")) == true {
                tick = run
            }
        }
        let running = try #require(tick, "no tick run: \(Self.waitForLine("", in: log, seconds: 0))")
        kill(daemon.process.processIdentifier, SIGTERM)
        let stopped = daemon.finish()
        #expect(stopped.status == 0, "\(stopped.output)")

        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        let plain = ISO8601DateFormatter()
        func date(_ value: Any?) -> Date? { (value as? String).flatMap { formatter.date(from: $0) ?? plain.date(from: $0) } }
        let run = try #require(try Self.history(lanes, project, state: state).first { $0["id"] as? Int == running["id"] as? Int })
        let scheduled = try #require(date(run["scheduled"]))
        let started = try #require(date(run["started"]))
        #expect(scheduled.timeIntervalSince1970 == 1_800_000_000, "the injected clock's minute, not the real one: \(scheduled)")
        #expect(started.timeIntervalSince(scheduled) >= 0 && started.timeIntervalSince(scheduled) < 3, "started \(started) for \(scheduled)")
        #expect(run["trigger"] as? String == "timer")
        #expect(run["status"] as? String == "cancelled")  // still waiting when SIGTERM came
        for folder in try FileManager.default.contentsOfDirectory(atPath: state + "/logs") {
            #expect(FileManager.default.fileExists(atPath: "\(state)/logs/\(folder)/events.jsonl"), "\(folder)")
        }
    }

    /// The Lanefile side, waiting on the daemon's log lines: a broken edit keeps the previous
    /// version and names the user's file, a good one is picked up, SIGTERM stops it cleanly, and
    /// after kill -9 a new daemon starts.
    @Test(arguments: backends) func reloadsKeepsTheLastGoodLanefileAndStopsCleanly(backend: String) throws {
        let project = try LanesProcess.project("daemon")
        let state = project.appendingPathComponent("state").path
        let log = project.appendingPathComponent("daemon.stderr").path
        var lanes = LanesProcess()
        lanes.environment["LANES_EVENT_BACKEND"] = backend
        #expect(try lanes.run(["list"], in: project).status == 0)

        let daemon = try Self.startDaemon(lanes, project: project, state: state, log: log)
        defer { kill(daemon.process.processIdentifier, SIGKILL) }
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        let original = try String(contentsOf: lanefile, encoding: .utf8)
        Self.waitForLine("scheduling 1 lane(s)", in: log)
        try "import Lanes\nlet lanes = Lanefile { Lane(\"tick\" }\n".write(to: lanefile, atomically: true, encoding: .utf8)
        Self.waitForLine("Lanefile changed but cannot be used", in: log)
        let withTock = original.replacingOccurrences(of: "    .schedule(\"* * * * *\")\n",
                                                     with: "    .schedule(\"* * * * *\")\n    Lane(\"tock\", \"Also every minute\") { print(\"tock\") }.schedule(\"* * * * *\")\n")
        try withTock.write(to: lanefile, atomically: true, encoding: .utf8)
        Self.waitForLine("Lanefile changed: now scheduling 2 lane(s)", in: log)
        kill(daemon.process.processIdentifier, SIGTERM)
        let stopped = daemon.finish()
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(stopped.status == 0, "\(text)")
        #expect(text.contains("Lanefile changed but cannot be used; keeping the previous version"), "\(text)")
        #expect(text.contains("Lanefile changed: now scheduling 2 lane(s)"), "\(text)")
        // The compile error names the user's Lanefile, not the daemon's copy of it.
        #expect(text.contains(lanefile.path + ":2:"), "\(text)")
        #expect(!text.contains("candidate/Lanefile.swift:"))

        // kill -9: the lock dies with the process; the next daemon starts.
        let firstLog = project.appendingPathComponent("first.stderr").path
        let first = try Self.startDaemon(lanes, project: project, state: state, log: firstLog)
        Self.waitForLine("scheduling 2 lane(s)", in: firstLog)
        kill(first.process.processIdentifier, SIGKILL)
        _ = first.finish()
        let secondLog = project.appendingPathComponent("second.stderr").path
        let second = try Self.startDaemon(lanes, project: project, state: state, log: secondLog)
        Self.waitForLine("scheduling 2 lane(s)", in: secondLog)
        kill(second.process.processIdentifier, SIGTERM)
        let secondResult = second.finish()
        let secondText = (try? String(contentsOfFile: secondLog, encoding: .utf8)) ?? ""
        #expect(secondResult.status == 0, "\(secondText)")
        #expect(secondText.contains("scheduling 2 lane(s)"), "\(secondText)")
    }

    @Test(arguments: backends) func aSecondDaemonIsRefused(backend: String) throws {
        let project = try LanesProcess.project("daemon")
        let state = project.appendingPathComponent("state").path
        var lanes = LanesProcess()
        lanes.environment["LANES_EVENT_BACKEND"] = backend
        let log = project.appendingPathComponent("daemon.stderr").path
        let first = try Self.startDaemon(lanes, project: project, state: state, log: log, grace: "30")
        defer {
            kill(first.process.processIdentifier, SIGTERM)
            _ = first.finish()
        }
        Self.waitForLine("scheduling 1 lane(s)", in: log)  // it holds the lock
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
