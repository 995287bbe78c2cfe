#if canImport(Darwin)
extension FilePath {
    /// `_NSGetExecutablePath` (mach-o/dyld.h): the path the executable was started by, which may
    /// hold symbolic links or `..` (the caller resolves it). It returns -1 and sets `size` to
    /// the length it needs when the buffer is too small.
    static func executablePathFromSystem() -> String? {
        var size: UInt32 = 1024
        for _ in 0..<2 {
            var buffer = [CChar](repeating: 0, count: Int(size))
            if _NSGetExecutablePath(&buffer, &size) == 0 {
                return String(decoding: buffer.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
            }
        }
        return nil
    }
}
#endif
