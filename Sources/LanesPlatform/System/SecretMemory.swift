/// Keeps a process that holds secrets out of core files and out of reach of debuggers: no core
/// dump (`RLIMIT_CORE` 0) and the OS's own "no attach" switch (`denyAttach`, one file per OS).
public enum SecretMemory {
    public static func protect() {
        var none = rlimit(rlim_cur: 0, rlim_max: 0)
        _ = setrlimit(coreLimit, &none)
        denyAttach()
    }
}
