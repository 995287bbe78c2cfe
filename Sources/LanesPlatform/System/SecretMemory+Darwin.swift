#if canImport(Darwin)
extension SecretMemory {
    static var coreLimit: Int32 { RLIMIT_CORE }

    /// `P_TRACED` (sys/proc.h) in this process's `kinfo_proc` (sysctl CTL_KERN, KERN_PROC,
    /// KERN_PROC_PID): set while a debugger or DTrace is attached (Apple's QA1361).
    static func isTraced() -> Bool {
        var request: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_PID, getpid()]
        var info = kinfo_proc()
        var size = MemoryLayout<kinfo_proc>.stride
        guard sysctl(&request, 4, &info, &size, nil, 0) == 0 else { return false }
        return info.kp_proc.p_flag & P_TRACED != 0
    }

    /// ptrace(PT_DENY_ATTACH, 0, 0, 0) (sys/ptrace.h): the kernel refuses any debugger that tries to
    /// attach later. On a process already traced it exits the process (ENOTSUP, 45) instead, so a
    /// traced runner skips it. Darwin has no PR_SET_DUMPABLE; core files are covered by RLIMIT_CORE.
    /// Looked up at run time because the SDK's module map does not promise to export sys/ptrace.h.
    static func denyAttach(alreadyTraced: Bool) {
        guard !alreadyTraced else { return }
        typealias Ptrace = @convention(c) (Int32, pid_t, UnsafeMutableRawPointer?, Int32) -> Int32
        let defaultHandle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT in dlfcn.h
        guard let symbol = dlsym(defaultHandle, "ptrace") else { return }
        let ptrace = unsafeBitCast(symbol, to: Ptrace.self)
        let denyAttach: Int32 = 31  // PT_DENY_ATTACH in sys/ptrace.h
        _ = ptrace(denyAttach, 0, nil, 0)
    }
}
#endif
