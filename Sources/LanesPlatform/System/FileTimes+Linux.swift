#if os(Linux)
extension FileTimes {
    /// Linux names the field `st_mtim`.
    public static func modification(of info: stat) -> timespec { info.st_mtim }
}
#endif
