#if os(Linux)
import Glibc
internal import CLinuxEvents

/// A child's end as a descriptor that polls readable when the child ends (Linux 5.3's pidfd), so
/// the host's monitor needs no SIGCHLD handler; -1 on an older kernel (then SIGCHLD tells).
enum ChildHandle {
    static func open(_ pid: Int32) -> Int32 {
        let descriptor = pidfd_open(pid, 0)
        if descriptor >= 0 { _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC) }
        return descriptor
    }
}
#endif
