// Issue 35: kept only for the suites that landed after the conversion to `Program` (Google Play,
// match audit, and a few CLI and platform suites). It blocks a thread of the cooperative pool;
// new tests use `Program` and `LanesCommandLine`, and these callers move to them next.
import Foundation

/// Checks `condition` on this thread every 20 ms until it holds or `timeout` seconds have passed,
/// and once more at the end. Synchronous on purpose: an `await Task.sleep` loop resumes only when
/// the cooperative pool (a thread per core) has a thread free, and in a parallel run full of tests
/// blocked on child processes that came after the deadline, with the awaited file long there
/// (InterruptTests at load 15: "the lane did not start", and the lane's log showing it had).
public func waitUntil(timeout: Double, _ condition: () -> Bool) -> Bool {
    let deadline = Date().addingTimeInterval(timeout)
    while Date() < deadline {
        if condition() { return true }
        Thread.sleep(forTimeInterval: 0.02)
    }
    return condition()
}

/// Checks `condition` every `interval`, at most `looks` times, without holding a thread while it
/// waits. Counted in looks, not on a clock: while other suites hold every thread of the cooperative
/// pool neither this loop nor the work it waits for runs, and a wall-clock deadline would expire
/// before either did. The bound is for a broken build, not a duration a test relies on.
public func eventually(looks: Int, every interval: Duration, _ condition: () -> Bool) async throws -> Bool {
    for _ in 0..<looks {
        if condition() { return true }
        try await Task.sleep(for: interval)
    }
    return condition()
}
