#if os(Linux)
import Glibc

/// glibc declares it only under _GNU_SOURCE, which Swift's Glibc module does not define.
@_silgen_name("posix_spawn_file_actions_addchdir_np")
private func spawnActionsAddChangeDirectory(_ actions: UnsafeMutablePointer<posix_spawn_file_actions_t>,
                                            _ path: UnsafePointer<CChar>) -> Int32

extension ChildProcess {
    /// glibc's spawn types are structs that `_init` fills in.
    public typealias FileActions = posix_spawn_file_actions_t
    public static func newFileActions() -> FileActions { posix_spawn_file_actions_t() }
    static func newAttributes() -> posix_spawnattr_t { posix_spawnattr_t() }

    static func addChangeDirectory(_ path: String, to actions: inout FileActions) {
        _ = spawnActionsAddChangeDirectory(&actions, path)
    }

    /// Writing to a pipe whose reader is gone raises SIGPIPE; Linux has no per-descriptor switch,
    /// so the writing thread blocks it, and `discardPipeSignal` takes the pending one back.
    static func protectFromPipeSignal(writeEnd: Int32) {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &pipeSignal, nil)
    }

    static func discardPipeSignal() {
        var pipeSignal = sigset_t()
        sigemptyset(&pipeSignal)
        sigaddset(&pipeSignal, SIGPIPE)
        var now = timespec(tv_sec: 0, tv_nsec: 0)
        _ = sigtimedwait(&pipeSignal, nil, &now)
    }

    /// "Text file busy".
    static let programBusy = ETXTBSY
}
#endif
