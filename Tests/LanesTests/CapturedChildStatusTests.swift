import Foundation
import LanesPlatform
import LanesTestSupport
import Testing

/// `ChildProcess.runCapturingOutput` keeps the status of a child it reaped at the end of one round of
/// its loop when, in the next round, the child's end descriptor says it ended: a second `waitpid`
/// finds no child, and the status was taken for a silent 127 (the CI failures of a compiler and of
/// `swift package dump-package` that printed everything and "failed").
@Suite(.timeLimit(.minutes(3))) struct CapturedChildStatusTests {
    @Test func aChildReapedBeforeItsEndDescriptorIsReadKeepsItsStatus() async throws {
        let folder = LanesCommandLine.temporaryDirectory("reaped-status")
        defer { try? FileManager.default.removeItem(at: folder) }
        let gate = folder.appendingPathComponent("gate").path
        try #require(mkfifo(gate, 0o600) == 0)
        // The child prints, waits for the gate, then exits 7; a background grandchild keeps its output
        // pipe open a while, so the loop goes on after the child has been reaped.
        let child = ChildProcess(["/bin/sh", "-c", "sleep 3 & echo ready; read line < '\(gate)'; exit 7"])
        let status: WaitStatus = try await withCheckedThrowingContinuation { continuation in
            startThread {
                var pid: Int32 = 0
                var opened = false
                do {
                    let status = try child.runCapturingOutput(input: nil, started: { pid = $0 }) { _, _ in
                        guard !opened else { return }
                        opened = true
                        // The round that read this output started while the child still ran. Let it end
                        // and hold the round until it has: the round reaps it, and the next one finds
                        // the child's end descriptor ready.
                        let descriptor = open(gate, O_WRONLY)
                        _ = write(descriptor, "go\n", 3)
                        close(descriptor)
                        // Waits for its end without reaping it (WNOWAIT): the launcher still reaps it.
                        var info = siginfo_t()
                        while waitid(P_PID, id_t(pid), &info, WEXITED | WNOWAIT) < 0 && errno == EINTR {}
                    }
                    continuation.resume(returning: status)
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        }
        #expect(status == .exited(7))
    }
}
