#if os(Linux)
extension SecretMemory {
    /// glibc imports `RLIMIT_CORE` as an enum case; `setrlimit` takes its raw value.
    static var coreLimit: __rlimit_resource_t { __rlimit_resource_t(RLIMIT_CORE.rawValue) }

    /// `TracerPid:` in /proc/self/status is the tracing process (gdb, strace), 0 when there is none.
    static func isTraced() -> Bool {
        guard let status = try? FilePath.read("/proc/self/status") else { return false }
        guard let line = status.split(separator: "\n").first(where: { $0.hasPrefix("TracerPid:") }) else { return false }
        return (Int(String(line.dropFirst("TracerPid:".count).filter { $0 != " " && $0 != "\t" })) ?? 0) != 0
    }

    /// prctl(PR_SET_DUMPABLE, 0): no core file, no ptrace by the same user, /proc/PID/mem closed. A
    /// tracer attached before stays attached, and the process goes on, so it is called either way.
    /// prctl is variadic in C, which Swift cannot call; it is looked up and called with its fixed
    /// five-argument form (what the kernel takes and glibc passes on).
    static func denyAttach(alreadyTraced: Bool) {
        typealias Prctl = @convention(c) (Int32, UInt, UInt, UInt, UInt) -> Int32
        guard let symbol = dlsym(UnsafeMutableRawPointer(bitPattern: 0), "prctl") else { return }
        let prctl = unsafeBitCast(symbol, to: Prctl.self)
        let setDumpable: Int32 = 4  // PR_SET_DUMPABLE in <linux/prctl.h>, which Glibc's module does not export
        _ = prctl(setDumpable, 0, 0, 0, 0)
    }
}
#endif
