import Foundation
import LanesTestSupport
import Testing

/// Issue 21: "after kill -9 of lanes its children keep running". They do (nothing can run in a
/// process killed that way), but the next run of the project ends them: it finds the killed lane's
/// unlocked lease and ends every process carrying that lane's tag, `setsid` sessions included.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ProcessLeftoverTests {
    @Test func theNextRunEndsWhatALaneKilledWithSIGKILLLeftRunning() async throws {
        let project = LanesCommandLine.temporaryDirectory("leftovers")
        try """
        import Lanes

        let lanes = Lanefile {
            Lane("spawn", "Starts a session of its own, then waits") {
                try await sh("sh", "-c", "setsid sleep 120 </dev/null >/dev/null 2>&1 & echo $! > escaped.pid; touch lane-started; sleep 120")
            }
            Lane("next", "Anything") { print("next") }
        }

        """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let lanes = LanesCommandLine()
        #expect(try await lanes.run(["list"], in: project).status == 0, "compile first")
        let running = try lanes.start(["spawn"], in: project)
        let marker = project.appendingPathComponent("lane-started").path
        #expect(await eventually(within: .seconds(120)) { FileManager.default.fileExists(atPath: marker) }, "the lane started")
        let pidText = try String(contentsOf: project.appendingPathComponent("escaped.pid"), encoding: .utf8)
        let escaped = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        kill(running.pid, SIGKILL)
        // Not finish(): it waits for the output pipes too, which the orphaned step holds until
        // something ends it. The killed runner is a zombie at once.
        let runner = running.pid
        _ = await eventually(within: .seconds(5)) { !isRunning(runner) }
        #expect(isRunning(escaped), "the setsid sleep outlives kill -9 of its lane")

        let next = try await lanes.run(["next"], in: project)
        #expect(next.status == 0, "\(next.output)")
        #expect(next.standardError.contains("left running by a lane that crashed or was killed"), "\(next.standardError)")
        let gone = await eventually(within: .seconds(10)) { !isRunning(escaped) }
        #expect(gone, "setsid sleep \(escaped) outlived the next run")
        // Only while it still exists: a freed process id may already be someone else's.
        if !gone { kill(escaped, SIGKILL) }
        _ = await running.finish()  // the step's shell was ended too, so its pipes are closed
    }

    /// Alive and not a zombie waiting for init. Read with a throwing call, tried again: a signal that
    /// reaches this process mid-read fails the read with EINTR (Foundation's read-to-end of a FileHandle traps on that).
    private func isRunning(_ pid: pid_t) -> Bool {
        for _ in 0..<5 {
            guard kill(pid, 0) == 0 else { return false }
            guard let stat = try? String(contentsOfFile: "/proc/\(pid)/stat", encoding: .utf8) else { continue }
            guard let close = stat.lastIndex(of: ")") else { return false }
            return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
        }
        return kill(pid, 0) == 0
    }
}
