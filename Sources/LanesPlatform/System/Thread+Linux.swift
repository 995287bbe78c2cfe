#if os(Linux)
extension PlatformThread {
    /// glibc's `pthread_t` is an integer, zero until `pthread_create` fills it.
    static func create(_ context: UnsafeMutableRawPointer) -> (Int32, pthread_t?) {
        var thread = pthread_t()
        let status = pthread_create(&thread, nil, { argument in PlatformThread.enter(argument); return nil }, context)
        return (status, status == 0 ? thread : nil)
    }
}
#endif
