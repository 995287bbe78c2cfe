import Foundation
import LanesTestSupport
import Testing

/// Issue 21: the daemon keeps scheduling when the history cannot be written for a while (a locked,
/// full or read-only database): it says so, retries, and runs the due lane once the write works.
@Suite(.serialized) struct DaemonHistoryWriteTests {
    @Test func aHistoryThatCannotBeWrittenForAWhileIsRetriedNotFatal() throws {
        let project = try LanesProcess.project("daemon")
        let state = project.appendingPathComponent("state").path
        let log = project.appendingPathComponent("daemon.stderr").path
        let lanes = LanesProcess()
        #expect(try lanes.run(["list"], in: project).status == 0)  // compile before the clock matters
        // The daemon's loop on a clock 8 s before a minute (DaemonClockHelper): time to lock the
        // history before the every-minute lane is due, without waiting for a real minute.
        let helper = LanesProcess.repositoryRoot.appendingPathComponent(".build/debug/DaemonClockHelper").path
        let daemon = try lanes.start(["-c", #"exec "$0" "$1" "$2" "$3" 8 2>"$4""#, helper, state, project.path, LanesProcess.executable, log],
                                     in: project, executable: "/bin/sh")
        var stopped = false
        defer { if !stopped { kill(daemon.process.processIdentifier, SIGKILL); _ = daemon.finish() } }
        DaemonTests.waitForLine("scheduling 1 lane(s)", in: log, seconds: 60)
        let database = state + "/history.sqlite"
        #expect(FileManager.default.fileExists(atPath: database))
        // Hold an exclusive lock until the daemon has said it cannot write (the release file).
        let (locked, release) = (state + "/locked", state + "/release")
        let holder = Process()
        holder.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        holder.arguments = ["python3", "-c", """
            import os, sqlite3, sys, time
            c = sqlite3.connect(sys.argv[1], isolation_level=None, timeout=30)
            c.execute('BEGIN EXCLUSIVE')
            open(sys.argv[2], 'w').close()
            deadline = time.time() + 60
            while not os.path.exists(sys.argv[3]) and time.time() < deadline:
                time.sleep(0.05)
            c.execute('ROLLBACK')
            """, database, locked, release]
        try holder.run()
        let lockDeadline = Date().addingTimeInterval(30)
        while !FileManager.default.fileExists(atPath: locked), Date() < lockDeadline { Thread.sleep(forTimeInterval: 0.05) }
        let refused = DaemonTests.waitForLine("ERROR: cannot write the run history", in: log, seconds: 60)
        #expect(daemon.process.isRunning, "the daemon stopped when the history could not be written: \(refused)")
        FileManager.default.createFile(atPath: release, contents: nil)
        holder.waitUntilExit()
        #expect(holder.terminationStatus == 0)
        DaemonTests.waitForLine("the run history can be written again", in: log, seconds: 60)

        var ran = false
        let runDeadline = Date().addingTimeInterval(60)
        while !ran, Date() < runDeadline, daemon.process.isRunning {
            let history = try lanes.run(["history", "--json", "--state-dir", state], in: project)
            ran = history.standardOutput.contains("\"tick\"")
            if !ran { Thread.sleep(forTimeInterval: 0.2) }  // polling the history for the run
        }
        kill(daemon.process.processIdentifier, SIGTERM)
        let result = daemon.finish()
        stopped = true
        let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(ran, "no run was recorded after the lock went: \(text)")
        #expect(result.status == 0, "\(text)")
        #expect(text.contains("ERROR: cannot write the run history"), "\(text)")
        #expect(text.contains("the run history can be written again"), "\(text)")
    }

    /// Issue 31: a history that fails at once (a full disk, a read-only file system) made the daemon
    /// write about 20,000 lines in 6 s, "cannot write ... retrying in 1 s" and "can be written again"
    /// in turn. It says it once, backs off, and says once that it works again.
    @Test func aHistoryThatFailsAtOnceIsSaidOnceAndRetriedLessAndLessOften() throws {
        let project = try LanesProcess.project("daemon")
        let state = project.appendingPathComponent("state").path
        let log = project.appendingPathComponent("daemon.stderr").path
        let lanes = LanesProcess()
        #expect(try lanes.run(["list"], in: project).status == 0)
        let helper = LanesProcess.repositoryRoot.appendingPathComponent(".build/debug/DaemonClockHelper").path
        // The daemon's standard error goes through a FIFO to a `cat` of its own: the daemon's file
        // size limit, set to 0 below so that every write of the history fails (EFBIG, the signal
        // ignored), must not stop its log.
        let fifo = project.appendingPathComponent("daemon.fifo").path
        let script = #"trap '' XFSZ; mkfifo "$5"; cat "$5" > "$4" & exec "$0" "$1" "$2" "$3" 6 2>"$5""#
        let daemon = try lanes.start(["-c", script, helper, state, project.path, LanesProcess.executable, log, fifo],
                                     in: project, executable: "/bin/sh")
        var stopped = false
        defer { if !stopped { kill(daemon.process.processIdentifier, SIGKILL); _ = daemon.finish() } }
        DaemonTests.waitForLine("scheduling 1 lane(s)", in: log, seconds: 60)
        let pid = daemon.process.processIdentifier
        try prlimit(pid, fileSize: "0:")
        let failing = DaemonTests.waitForLine("ERROR: cannot write the run history", in: log, seconds: 60)
        #expect(failing.contains("ERROR: cannot write the run history"), "\(failing)")
        // A flood is the absence of quiet, so it is watched for a while: six seconds of a history
        // that cannot be written (retries at 1, 2 and 4 s of backoff). The old loop wrote a second
        // line within milliseconds, which ends the wait at once.
        let flooded = waitUntil(timeout: 6) {
            let text = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
            return text.components(separatedBy: "cannot write the run history").count > 2 || text.contains("can be written again")
        }
        let during = (try? String(contentsOfFile: log, encoding: .utf8)) ?? ""
        #expect(!flooded, "\(during.suffix(2000))")
        #expect(during.components(separatedBy: "cannot write the run history").count - 1 == 1, "\(during.suffix(2000))")
        #expect(!during.contains("can be written again"), "\(during.suffix(2000))")
        #expect(daemon.process.isRunning)

        try prlimit(pid, fileSize: "unlimited:")
        let recovered = DaemonTests.waitForLine("the run history can be written again", in: log, seconds: 90)
        #expect(recovered.components(separatedBy: "can be written again").count - 1 == 1, "\(recovered.suffix(2000))")
        var ran = false
        let runDeadline = Date().addingTimeInterval(60)
        while !ran, Date() < runDeadline, daemon.process.isRunning {
            let history = try lanes.run(["history", "--json", "--state-dir", state], in: project)
            ran = history.standardOutput.contains("\"tick\"")
            if !ran { Thread.sleep(forTimeInterval: 0.2) }  // polling the history for the run
        }
        kill(pid, SIGTERM)
        let result = daemon.finish()
        stopped = true
        #expect(ran, "the due run was not recorded once the history worked again")
        #expect(result.status == 0)
    }

    /// util-linux's prlimit on a running process: the soft limit only (`SOFT:`), so that it can be
    /// raised again without CAP_SYS_RESOURCE.
    private func prlimit(_ pid: Int32, fileSize: String) throws {
        let result = try runProgram(["prlimit", "--pid", String(pid), "--fsize=\(fileSize)"])
        try #require(result.status == 0, "prlimit: \(result.error)")
    }
}
