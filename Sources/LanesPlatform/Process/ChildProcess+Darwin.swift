#if canImport(Darwin)
import Darwin

extension ChildProcess {
    static func addChangeDirectory(_ path: String, to actions: inout posix_spawn_file_actions_t) {
        _ = posix_spawn_file_actions_addchdir_np(&actions, path)
    }

    /// Darwin can switch SIGPIPE off per descriptor.
    static func protectFromPipeSignal(writeEnd: Int32) {
        _ = fcntl(writeEnd, F_SETNOSIGPIPE, 1)
    }

    static func discardPipeSignal() {}
}
#endif
