#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Ending the processes a lane started, as a whole: SIGTERM, a grace period for cleanup
/// (xcodebuild removes its intermediates), then SIGKILL, whatever the first process did. A child
/// that exits at once on SIGTERM while its own child ignores it must not end the wait early: the
/// group is watched until it is empty, not the child.
public enum ProcessGroup {
    /// Whether any process is still in group `group` (zombies not yet reaped count).
    public static func hasMembers(_ group: Int32) -> Bool {
        group > 1 && (kill(-group, 0) == 0 || errno == EPERM)
    }

    /// SIGTERM to every group and every tagged process, then SIGKILL to whatever is left of them
    /// after `grace` seconds (checked every 20 ms, so an obedient group ends the wait at once).
    /// `tagged` is asked again after the grace period: a process can start another while dying.
    public static func end(groups: [Int32], tagged: () -> [Int32] = { [] }, grace: Double) {
        let groups = groups.filter { $0 > 1 }
        for group in groups { kill(-group, SIGTERM) }
        for pid in tagged() where pid > 1 { kill(pid, SIGTERM) }
        var waited = 0.0
        while waited < grace, groups.contains(where: hasMembers) || !tagged().isEmpty {
            var pause = timespec(tv_sec: 0, tv_nsec: 20_000_000)
            nanosleep(&pause, nil)
            waited += 0.02
        }
        for group in groups where hasMembers(group) { kill(-group, SIGKILL) }
        for pid in tagged() where pid > 1 { kill(pid, SIGKILL) }
    }

    /// `end(groups:tagged:grace:)` for async code, on `host`'s clock. SIGTERM to every group and
    /// every tagged process; then the wait: for the groups' leaders' ends as the host reports them
    /// (an obedient group ends the wait at once, with no time spent), then, while members or tagged
    /// processes remain (a grandchild that ignores SIGTERM), a `kill(pid, 0)` check from 5 ms apart
    /// to at most 100 ms, never a scan of the process table; after `grace`, SIGKILL to what is left.
    /// `tagged` is asked again only for the SIGKILL (a process can start another while dying).
    public static func end(groups: [Int32], leaders: [HostChild] = [], tagged: () -> [Int32] = { [] }, grace: Duration,
                           host: any Host) async {
        let groups = groups.filter { $0 > 1 }
        for group in groups { kill(-group, SIGTERM) }
        let strays = tagged().filter { $0 > 1 }
        for pid in strays { kill(pid, SIGTERM) }
        let deadline = host.now().advanced(by: grace)
        let emptied = DeadlineRace()
        let watch = Task {
            for leader in leaders { _ = await leader.status() }
            var pause: Duration = .milliseconds(5)
            while groups.contains(where: hasMembers) || strays.contains(where: { kill($0, 0) == 0 }) {
                do { try await host.sleep(for: pause) } catch { return }
                pause = min(pause * 2, .milliseconds(100))
            }
            emptied.finish(true)
        }
        let timer = Task {
            do { try await host.sleep(until: deadline) } catch {}
            emptied.finish(false)
        }
        let inTime = await emptied.wait()
        watch.cancel()
        timer.cancel()
        guard !inTime else { return }
        for group in groups where hasMembers(group) { kill(-group, SIGKILL) }
        for pid in tagged() where pid > 1 { kill(pid, SIGKILL) }
    }
}

/// Which came first: the group emptied (true) or the grace period ended (false).
private final class DeadlineRace: Sendable {
    private let state = PlatformMutex<(value: Bool?, waiter: CheckedContinuation<Bool, Never>?)>((nil, nil))

    func finish(_ value: Bool) {
        let waiter: CheckedContinuation<Bool, Never>? = state.withLock { state in
            guard state.value == nil else { return nil }
            state.value = value
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: value)
    }

    func wait() async -> Bool {
        await withCheckedContinuation { continuation in
            let ready: Bool? = state.withLock { state in
                if let value = state.value { return value }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
