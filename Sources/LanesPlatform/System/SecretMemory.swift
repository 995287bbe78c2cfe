/// Keeps a process that holds secrets out of core files and out of reach of debuggers: no core
/// dump (`RLIMIT_CORE` 0) and the OS's own "no attach" switch (`denyAttach`, one file per OS).
public enum SecretMemory {
    /// What `protect` achieved.
    public enum Protection: Sendable, Equatable {
        /// No core file, and no debugger can attach from now on.
        case sealed
        /// No core file, but a debugger or tracer was attached before the secrets came, and it can
        /// read them: lanes cannot take it off. (On Darwin the switch is skipped then, since
        /// `PT_DENY_ATTACH` ends a traced process at once, with status 45 and no message.)
        case alreadyTraced
    }

    @discardableResult
    public static func protect() -> Protection {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(coreLimit, &none)
        let traced = isTraced()
        denyAttach(alreadyTraced: traced)
        return traced ? .alreadyTraced : .sealed
    }
}
