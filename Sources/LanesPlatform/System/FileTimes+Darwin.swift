#if canImport(Darwin)
extension FileTimes {
    /// Darwin names the field `st_mtimespec` (sys/stat.h, with `_DARWIN_C_SOURCE`, the default).
    public static func modification(of info: stat) -> timespec { info.st_mtimespec }
}
#endif
