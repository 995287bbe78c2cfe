#if canImport(Darwin)
import Darwin

extension ProcessTags {
    /// Live processes of this user other than this one whose environment carries `tag`, read
    /// with `sysctl(KERN_PROCARGS2)` (argc, the executable path, argv, then the environment).
    public static func processes(carrying tag: String) -> [Int32] {
        var request: [Int32] = [CTL_KERN, KERN_PROC, KERN_PROC_UID, Int32(bitPattern: getuid())]
        var size = 0
        guard sysctl(&request, 4, nil, &size, nil, 0) == 0, size > 0 else { return [] }
        var processes = [kinfo_proc](repeating: kinfo_proc(), count: size / MemoryLayout<kinfo_proc>.stride + 8)
        size = processes.count * MemoryLayout<kinfo_proc>.stride
        guard sysctl(&request, 4, &processes, &size, nil, 0) == 0 else { return [] }
        let me = getpid()
        var found: [Int32] = []
        for info in processes.prefix(size / MemoryLayout<kinfo_proc>.stride) {
            let pid = info.kp_proc.p_pid
            guard pid > 0, pid != me else { continue }
            var arguments: [Int32] = [CTL_KERN, KERN_PROCARGS2, pid]
            var length = 0
            guard sysctl(&arguments, 3, nil, &length, nil, 0) == 0, length > MemoryLayout<Int32>.size else { continue }
            var bytes = [UInt8](repeating: 0, count: length)
            guard sysctl(&arguments, 3, &bytes, &length, nil, 0) == 0 else { continue }
            let argc = bytes.withUnsafeBytes { $0.load(as: Int32.self) }
            // After argc: the executable path, NUL padding, argc arguments, then the environment.
            let fields = bytes[MemoryLayout<Int32>.size..<length].split(separator: 0, omittingEmptySubsequences: true)
            let environment = fields.dropFirst(1 + Int(argc)).lazy.map { Substring(decoding: $0, as: UTF8.self) }
            if entries(environment, carry: tag) { found.append(pid) }
        }
        return found
    }
}
#endif
