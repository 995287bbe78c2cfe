import Foundation
import LanesTestSupport
import Testing

/// Issue 31: SIGHUP (a closed terminal or ssh session) killed the runner with no cleanup, and the
/// step's child kept running. It now stops the lane as SIGTERM does.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct HangupTests {
    @Test func sighupStopsTheLaneRunsFinallyAndEndsTheStepsChild() async throws {
        let project = LanesCommandLine.temporaryDirectory("hangup")
        defer { try? FileManager.default.removeItem(at: project) }
        try """
        import Lanes

        let lanes = Lanefile {
            Lane("wait", "Runs until the terminal goes") {
                try await sh("sh", "-c", "echo $$ > step.pid; touch lane-started; exec sleep 120")
            }
            Finally { lane in try echo("finally \\(lane) ran") }
        }

        """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let lanes = LanesCommandLine()
        #expect(try await lanes.run(["list"], in: project).status == 0, "compile first, so the signal reaches the runner")
        let running = try lanes.start(["wait"], in: project)
        let marker = project.appendingPathComponent("lane-started").path
        #expect(await eventually(within: .seconds(120)) { FileManager.default.fileExists(atPath: marker) }, "the lane started")
        let pidText = try String(contentsOf: project.appendingPathComponent("step.pid"), encoding: .utf8)
        let step = try #require(pid_t(pidText.trimmingCharacters(in: .whitespacesAndNewlines)))
        running.send(SIGHUP)
        // The runner ends its step before it exits; a runner killed outright leaves the sleep,
        // which holds no pipe of this test (its output goes to the runner's own pipe).
        let ended = await eventually(within: .seconds(30)) { !isRunning(step) }
        if !ended { kill(step, SIGKILL) }
        let result = await running.finish()
        #expect(ended, "the step's child outlived SIGHUP of its lane")
        #expect(result.status == 130, "\(result.output)")
        #expect(result.standardOutput.contains("finally wait ran"), "\(result.output)")
        #expect(result.standardError.contains("interrupted by a signal"), "\(result.standardError)")
    }

    /// Alive and not a zombie waiting for init.
    /// Read with a throwing call, tried again: a signal that reaches this process mid-read (other suites
    /// send them) fails the read with EINTR, and Foundation's read-to-end of a FileHandle traps on that.
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
