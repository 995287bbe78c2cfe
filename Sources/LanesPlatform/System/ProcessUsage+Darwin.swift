#if canImport(Darwin)
extension ProcessUsage {
    static func readOwnUsage(_ usage: inout rusage) { getrusage(RUSAGE_SELF, &usage) }
    /// Darwin counts `ru_maxrss` in bytes (getrusage(2)).
    static let maximumResidentUnit = 1
}
#endif
