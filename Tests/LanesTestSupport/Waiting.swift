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
