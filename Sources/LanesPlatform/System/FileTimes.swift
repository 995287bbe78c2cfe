/// The times in a `stat` result, whose field names differ between C libraries.
public enum FileTimes {
    /// Seconds since 1970 of the last modification recorded in `info`.
    public static func modificationSeconds(of info: stat) -> Int { Int(modification(of: info).tv_sec) }
}
