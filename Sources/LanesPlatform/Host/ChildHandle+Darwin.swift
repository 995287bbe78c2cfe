#if canImport(Darwin)
import Darwin

/// Darwin has no process descriptor that `poll` takes: the host's monitor learns of a child's end
/// through SIGCHLD.
enum ChildHandle {
    static func open(_ pid: Int32) -> Int32 { -1 }
}
#endif
