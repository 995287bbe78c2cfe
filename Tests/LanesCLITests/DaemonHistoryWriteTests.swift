import Foundation
import LanesTestSupport
import Testing

/// Issue 21: the daemon keeps scheduling when the history cannot be written for a while (a locked,
/// full or read-only database): it says so, retries, and runs the due lane once the write works.
@Suite(.serialized) struct DaemonHistoryWriteTests {
    @Test func aHistoryThatCannotBeWrittenForAWhileIsRetriedNotFatal() throws {
        let project = try LanesProcess.project("daemon")
        let state = project.appendingPathComponent("state").path
        let lanes = LanesProcess()
        #expect(try lanes.run(["list"], in: project).status == 0)  // compile before the clock matters
        let daemon = try lanes.start(["daemon", "--state-dir", state, "--grace", "2"], in: project)
        var stopped = false
        defer { if !stopped { kill(daemon.process.processIdentifier, SIGKILL); _ = daemon.finish() } }
        let database = state + "/history.sqlite"
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: database), Date() < deadline { Thread.sleep(forTimeInterval: 0.2) }
        // Lock the database across the next minute boundary, when the every-minute lane is due.
        while Calendar.current.component(.second, from: Date()) < 50, Date() < deadline.addingTimeInterval(60) {
            Thread.sleep(forTimeInterval: 0.5)
        }
        let flag = state + "/locked"
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            c.execute('BEGIN EXCLUSIVE')
            open(sys.argv[2], 'w').close()
            time.sleep(25)
            c.execute('ROLLBACK')
            """, database, flag]
        try holder.run()
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0)
        #expect(FileManager.default.fileExists(atPath: flag))
        #expect(daemon.process.isRunning, "the daemon stopped when the history could not be written")

        var ran = false
        let runDeadline = Date().addingTimeInterval(60)
        while !ran, Date() < runDeadline, daemon.process.isRunning {
            let history = try lanes.run(["history", "--json", "--state-dir", state], in: project)
            ran = history.standardOutput.contains("\"tick\"")
            if !ran { Thread.sleep(forTimeInterval: 1) }
        }
        kill(daemon.process.processIdentifier, SIGTERM)
        let result = daemon.finish()
        stopped = true
        #expect(ran, "no run was recorded after the lock went: \(result.output)")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardError.contains("ERROR: cannot write the run history"), "\(result.standardError)")
        #expect(result.standardError.contains("the run history can be written again"), "\(result.standardError)")
    }
}
