#if os(Linux)
/// glibc's `mallopt` (malloc.h, which Glibc's module does not export).
@_silgen_name("mallopt")
private func glibcMallopt(_ parameter: Int32, _ value: Int32) -> Int32

extension AllocatorTuning {
    /// `M_TRIM_THRESHOLD` (-1) and `M_MMAP_THRESHOLD` (-3) in glibc's malloc.h; mallopt returns 1 on success.
    static func keepFreedMemoryInAllocator(trimThreshold: Int, mappingThreshold: Int) -> String? {
        let trim = glibcMallopt(-1, Int32(clamping: trimThreshold))
        let mapping = glibcMallopt(-3, Int32(clamping: mappingThreshold))
        guard trim == 1, mapping == 1 else { return nil }
        return "glibc mallopt: M_TRIM_THRESHOLD \(trimThreshold >> 20) MiB, M_MMAP_THRESHOLD \(mappingThreshold >> 20) MiB"
    }
}
#endif
