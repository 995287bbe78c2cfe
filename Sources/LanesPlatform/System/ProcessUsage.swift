/// What this process has used so far, as `getrusage` reports it, in the same units on every OS.
public struct ProcessUsage: Sendable, Equatable {
    /// User plus system CPU time.
    public let cpuSeconds: Double
    /// The largest resident set so far, in bytes.
    public let peakResidentBytes: Int

    public static func current() -> ProcessUsage {
        var usage = rusage()
        readOwnUsage(&usage)
        return ProcessUsage(usage)
    }

    /// What `usage` reports, such as the `rusage` that `wait4` fills in for an ended child.
    public init(_ usage: rusage) {
        func seconds(_ time: timeval) -> Double { Double(time.tv_sec) + Double(time.tv_usec) / 1e6 }
        cpuSeconds = seconds(usage.ru_utime) + seconds(usage.ru_stime)
        peakResidentBytes = Int(usage.ru_maxrss) * Self.maximumResidentUnit
    }
}
