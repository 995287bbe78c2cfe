import Foundation
import LanesTestSupport
import Testing

/// `lanes daemon` as a user runs it: a Lanefile edit is picked up (compiled through the driver) and a
/// broken one keeps the previous version, naming the user's file; a second daemon is refused; after
/// kill -9 a new daemon starts; SIGTERM stops an idle daemon within a second. The tests wait on the
/// daemon's log lines, never on the clock. The loop itself (due runs, polls, shutdown) is tested
/// in-process on a virtual clock (`DaemonLoopTests`).
@Suite(.timeLimit(.minutes(10)), .tags(.live), .serialized) struct DaemonTests {
    static func history(_ lanes: LanesCommandLine, _ project: URL, state: String) async throws -> [[String: Any]] {
        let result = try await lanes.run(["history", "--json", "--state-dir", state], in: project)
        #expect(result.status == 0, "\(result.output)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
    }

    /// Starts `lanes daemon` with its standard error in a file this test reads while it runs.
    static func startDaemon(_ lanes: LanesCommandLine, project: URL, state: String, log: String, grace: String = "2") throws -> RunningProgram {
        try lanes.start(["-c", #"exec "$0" daemon --state-dir "$1" --grace "$3" 2>"$2""#, LanesCommandLine.executable, state, log, grace],
                        in: project, executable: "/bin/sh")
    }

    /// Waits for the daemon's log to say `line` (the event), at most `seconds`; returns the log.
    @discardableResult
    static func waitForLine(_ line: String, in log: String, count: Int = 1, seconds: Double = 120) async -> String {
        let deadline = Date().addingTimeInterval(seconds)
        var text = ""
        while Date() < deadline {
            text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            if text.components(separatedBy: line).count - 1 >= count { return text }
            try? await Task.sleep(for: .seconds(0.05))  // polling the file for the line, not waiting for time
        }
        return text
    }

    /// The Lanefile side, waiting on the daemon's log lines: a broken edit keeps the previous
    /// version and names the user's file, a good one is picked up, SIGTERM stops it cleanly, and
    /// after kill -9 a new daemon starts.
    @Test func reloadsKeepsTheLastGoodLanefileAndStopsCleanly() async throws {
        let project = try LanesCommandLine.project("daemon")
        let state = project.appendingPathComponent("state").path
        let log = project.appendingPathComponent("daemon.stderr").path
        let lanes = LanesCommandLine()
        #expect(try await lanes.run(["list"], in: project).status == 0)

        let daemon = try Self.startDaemon(lanes, project: project, state: state, log: log)
        defer { kill(daemon.pid, SIGKILL) }
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        let original = try String(contentsOf: lanefile, encoding: .utf8)
        await Self.waitForLine("scheduling 1 lane(s)", in: log)
        try "import Lanes\nlet lanes = Lanefile { Lane(\"tick\" }\n".write(to: lanefile, atomically: true, encoding: .utf8)
        await Self.waitForLine("Lanefile changed but cannot be used", in: log)
        let withTock = original.replacingOccurrences(of: "    .schedule(\"* * * * *\")\n",
                                                     with: "    .schedule(\"* * * * *\")\n    Lane(\"tock\", \"Also every minute\") { print(\"tock\") }.schedule(\"* * * * *\")\n")
        try withTock.write(to: lanefile, atomically: true, encoding: .utf8)
        await Self.waitForLine("Lanefile changed: now scheduling 2 lane(s)", in: log)
        kill(daemon.pid, SIGTERM)
        let stopped = await daemon.finish()
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
        await Self.waitForLine("scheduling 2 lane(s)", in: firstLog)
        kill(first.pid, SIGKILL)
        _ = await first.finish()
        let secondLog = project.appendingPathComponent("second.stderr").path
        let second = try Self.startDaemon(lanes, project: project, state: state, log: secondLog)
        await Self.waitForLine("scheduling 2 lane(s)", in: secondLog)
        kill(second.pid, SIGTERM)
        let secondResult = await second.finish()
        let secondText = (try? String(contentsOfFile: secondLog, encoding: .utf8)) ?? ""
        #expect(secondResult.status == 0, "\(secondText)")
        #expect(secondText.contains("scheduling 2 lane(s)"), "\(secondText)")
    }

    @Test func aSecondDaemonIsRefused() async throws {
        let project = try LanesCommandLine.project("daemon")
        let state = project.appendingPathComponent("state").path
        let lanes = LanesCommandLine()
        let log = project.appendingPathComponent("daemon.stderr").path
        let first = try Self.startDaemon(lanes, project: project, state: state, log: log, grace: "30")
        defer { kill(first.pid, SIGKILL) }
        await Self.waitForLine("scheduling 1 lane(s)", in: log)  // it holds the lock
        let second = try await lanes.run(["daemon", "--state-dir", state], in: project)
        #expect(second.status == 78)
        #expect(second.standardError.contains("another lanes daemon (pid \(first.pid)) already runs"), "\(second.output)")
        kill(first.pid, SIGTERM)
        _ = await first.finish()
    }

    /// Once the loop runs, SIGTERM ends an idle daemon within a second.
    @Test func stopsWithinASecondOfSIGTERM() async throws {
        let project = try LanesCommandLine.project("daemon")
        let state = project.appendingPathComponent("state").path
        let log = project.appendingPathComponent("daemon.stderr").path
        let lanes = LanesCommandLine()
        #expect(try await lanes.run(["list"], in: project).status == 0)
        // Through sh, so the daemon's standard error is a file this test can read while it runs.
        let daemon = try lanes.start(["-c", #"exec "$0" daemon --state-dir "$1" --grace 0 2>"$2""#, LanesCommandLine.executable, state, log],
                                     in: project, executable: "/bin/sh")
        defer { kill(daemon.pid, SIGKILL) }
        let deadline = Date().addingTimeInterval(120)
        var text = ""
        while !text.contains("scheduling 1 lane(s)"), Date() < deadline {
            try? await Task.sleep(for: .seconds(0.05))  // waiting for the line, not for time
            text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        }
        #expect(text.contains("scheduling 1 lane(s)"), "\(text)")
        let signalled = Date()
        kill(daemon.pid, SIGTERM)
        let stopped = await daemon.finish()
        let elapsed = Date().timeIntervalSince(signalled)
        #expect(stopped.status == 0, "\(stopped.output)")
        #expect(elapsed < 1, "stopped \(elapsed) s after SIGTERM")
    }
}
