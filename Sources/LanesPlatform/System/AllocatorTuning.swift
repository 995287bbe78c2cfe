/// How the C allocator keeps freed memory. A benchmark that repeats one job many times can ask it to
/// keep freed memory for the next round, as one long-lived lanes process does, instead of returning
/// it to the kernel after each; how (and whether) that is possible differs per allocator, one file each.
public enum AllocatorTuning {
    /// Asks the allocator to keep up to `trimThreshold` bytes of freed memory and to serve blocks up to
    /// `mappingThreshold` from its heap rather than from fresh mappings. Returns a description of what
    /// was changed, or nil when this allocator has no such setting (Darwin's libmalloc keeps freed
    /// memory in its magazines by itself, and has no `mallopt`).
    @discardableResult
    public static func keepFreedMemory(trimThreshold: Int = 512 << 20, mappingThreshold: Int = 32 << 20) -> String? {
        keepFreedMemoryInAllocator(trimThreshold: trimThreshold, mappingThreshold: mappingThreshold)
    }
}
