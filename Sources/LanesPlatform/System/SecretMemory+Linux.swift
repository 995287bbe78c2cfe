#if os(Linux)
extension SecretMemory {
    /// glibc imports `RLIMIT_CORE` as an enum case; `setrlimit` takes its raw value.
    static var coreLimit: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_CORE.rawValue) }

    /// prctl(PR_SET_DUMPABLE, 0): no core file, no ptrace by the same user, /proc/PID/mem closed.
    /// prctl is variadic in C, which Swift cannot call; it is looked up and called with its fixed
    /// five-argument form (what the kernel takes and glibc passes on).
    static func denyAttach() {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return }
        let prctl = unsafeBitCast(symbol, to: Prctl.self)
        let setDumpable: Int32 = 4  // PR_SET_DUMPABLE in <linux/prctl.h>, which Glibc's module does not export
        _ = prctl(setDumpable, 0, 0, 0, 0)
    }
}
#endif
