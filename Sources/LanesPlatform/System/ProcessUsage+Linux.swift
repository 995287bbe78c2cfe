#if os(Linux)
extension ProcessUsage {
    /// glibc imports RUSAGE_SELF as an enum case; `getrusage` takes its raw Int32.
    static func readOwnUsage(_ usage: inout rusage) { getrusage(__rusage_who_t(RUSAGE_SELF.rawValue), &usage) }
    /// Linux counts `ru_maxrss` in kilobytes.
    static let maximumResidentUnit = 1024
}
#endif
