import Foundation
import Synchronization
import LanesPlatform
import Testing
@testable import LanesRuntime

/// Issue 21's "processes outlive lanes": the grace period and SIGKILL reach the whole group even
/// when the direct child exits at SIGTERM, a `setsid` grandchild is found by its tag, and what a
/// step left running is ended with the lane.
@Suite(.timeLimit(.minutes(3)), .serialized) struct ProcessLifetimeTests {
    /// The step's shell dies at SIGTERM at once; its child ignores SIGTERM. Before the fix the
    /// group's SIGKILL never came (it was sent only while the shell lived).
    @Test func aGrandchildIgnoringSIGTERMIsKilledAfterTheGracePeriodThoughItsParentExited() async throws {
        let lane = LaneProcesses(grace: .milliseconds(500), host: SystemHost())
        let pid = try await startThenCancel(["sh", "-c", "(trap '' TERM; exec sleep 60) & echo $!; wait"], lane: lane)
        await lane.finish()
        #expect(try await ended(pid), "sleep \(pid), which ignores SIGTERM, outlived the cancelled step")
    }

    /// `setsid` leaves the process group: only the process tag finds it.
    @Test func aSetsidGrandchildIsEndedWithTheCancelledStep() async throws {
        let lane = LaneProcesses(grace: .milliseconds(500), host: SystemHost())
        let pid = try await startThenCancel(["sh", "-c", "setsid sleep 60 & echo $!; wait"], lane: lane)
        await lane.finish()
        #expect(try await ended(pid), "setsid sleep \(pid) outlived the cancelled step")
    }

    /// A step that finished normally but left a background session behind: the lane's end ends it.
    @Test func whatAFinishedStepLeftRunningEndsWithTheLane() async throws {
        let lane = LaneProcesses(grace: .milliseconds(500), host: SystemHost())
        let runner = SubprocessRunner(baseEnvironment: ProcessEnvironmentForTests.current, diagnostics: .silent, lane: lane)
        let lines = LineCollector()
        // The session's own process says its pid (setsid forks when it must): $! could name a parent that left.
        let pidFile = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-setsid-\(UUID().uuidString)").path
        defer { try? FileManager.default.removeItem(atPath: pidFile) }
        let outcome = try await runner.run(ProcessRequest(["sh", "-c", "setsid sh -c 'echo $$ > \"$0\"; exec sleep 60' \"$0\" </dev/null >/dev/null 2>&1 &"
                                                           + " while [ ! -s \"$0\" ]; do sleep 0.05; done", pidFile])) { lines.append($0) }
        #expect(outcome.succeeded)
        let text = try String(contentsOfFile: pidFile, encoding: .utf8)
        let pid = try #require(pid_t(text.trimmingCharacters(in: .whitespacesAndNewlines)))
        #expect(kill(pid, 0) == 0, "the background sleep runs until the lane ends")
        await lane.finish()
        #expect(try await ended(pid), "setsid sleep \(pid) outlived the lane")
    }

    /// Starts `arguments` under a step task, waits for the grandchild's pid on its output, cancels.
    private func startThenCancel(_ arguments: [String], lane: LaneProcesses) async throws -> pid_t {
        let grandchild = Mutex<pid_t?>(nil)
        let printed = AsyncStream<Void>.makeStream()
        let runner = SubprocessRunner(baseEnvironment: ProcessEnvironmentForTests.current, diagnostics: .silent, lane: lane)
        let task = Task {
            try await runner.run(ProcessRequest(arguments)) { line in
                if let pid = pid_t(line) {
                    grandchild.withLock { $0 = pid }
                    printed.continuation.yield()
                }
            }
        }
        var events = printed.stream.makeAsyncIterator()
        _ = await events.next()
        let pid = try #require(grandchild.withLock { $0 })
        #expect(kill(pid, 0) == 0)
        task.cancel()
        _ = try? await task.value
        return pid
    }

    /// Whether `pid` is gone (or a zombie waiting for init) within ten seconds.
    private func ended(_ pid: pid_t) async throws -> Bool {
        for _ in 0..<200 {
            if !isRunning(pid) { return true }
            try await Task.sleep(for: .milliseconds(50))
        }
        return false
    }

    private func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfProcFile: "/proc/\(pid)/stat"),
              let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }
}
