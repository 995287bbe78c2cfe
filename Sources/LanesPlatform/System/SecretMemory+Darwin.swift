#if canImport(Darwin)
extension SecretMemory {
    static var coreLimit: Int32 { RLIMIT_CORE }

    /// ptrace(PT_DENY_ATTACH) (sys/ptrace.h): a debugger that tries to attach later makes the
    /// kernel refuse it. Darwin has no PR_SET_DUMPABLE; core files are covered by RLIMIT_CORE.
    static func denyAttach() {
        _ = ptrace(PT_DENY_ATTACH, 0, nil, 0)
    }
}
#endif
