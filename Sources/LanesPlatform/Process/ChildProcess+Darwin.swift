#if canImport(Darwin)
import Darwin

extension ChildProcess {
    /// Darwin's spawn types are opaque pointers that `_init` allocates.
    public typealias FileActions = posix_spawn_file_actions_t?
    public static func newFileActions() -> FileActions { nil }
    static func newAttributes() -> posix_spawnattr_t? { nil }

    static func addChangeDirectory(_ path: String, to actions: inout FileActions) {
        _ = posix_spawn_file_actions_addchdir_np(&actions, path)
    }

    /// Darwin can switch SIGPIPE off per descriptor.
    static func protectFromPipeSignal(writeEnd: Int32) {
        _ = fcntl(writeEnd, F_SETNOSIGPIPE, 1)
    }

    static func discardPipeSignal() {}

    /// ETXTBSY, "Text file busy" (xnu bsd/sys/errno.h: 26).
    static let programBusy: Int32 = 26
}
#endif
