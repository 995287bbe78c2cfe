#if canImport(Darwin)
extension AllocatorTuning {
    /// Neither Libc nor libmalloc defines `mallopt`; the default allocator already keeps freed blocks.
    static func keepFreedMemoryInAllocator(trimThreshold: Int, mappingThreshold: Int) -> String? { nil }
}
#endif
