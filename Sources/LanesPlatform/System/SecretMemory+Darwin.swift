#if canImport(Darwin)
extension SecretMemory {
    static var coreLimit: Int32 { RLIMIT_CORE }

    /// ptrace(PT_DENY_ATTACH, 0, 0, 0) (sys/ptrace.h): the kernel refuses any debugger that tries to
    /// attach later. Darwin has no PR_SET_DUMPABLE; core files are covered by RLIMIT_CORE. Looked
    /// up at run time because the SDK's module map does not promise to export sys/ptrace.h.
    static func denyAttach() {
        typealias Ptrace = @convention(c) (Int32, pid_t, UnsafeMutableRawPointer?, Int32) -> Int32
        let defaultHandle = UnsafeMutableRawPointer(bitPattern: -2)  // RTLD_DEFAULT in dlfcn.h
        guard let symbol = dlsym(defaultHandle, "ptrace") else { return }
        let ptrace = unsafeBitCast(symbol, to: Ptrace.self)
        let denyAttach: Int32 = 31  // PT_DENY_ATTACH in sys/ptrace.h
        _ = ptrace(denyAttach, 0, nil, 0)
    }
}
#endif
