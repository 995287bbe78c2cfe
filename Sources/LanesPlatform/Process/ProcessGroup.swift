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
}
