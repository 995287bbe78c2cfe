import Foundation

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
