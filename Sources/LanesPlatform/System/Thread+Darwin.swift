#if canImport(Darwin)
extension PlatformThread {
    /// Darwin's `pthread_t` is a non-optional pointer; `pthread_create` takes `pthread_t?`.
    static func create(_ context: UnsafeMutableRawPointer) -> (Int32, pthread_t?) {
        var thread: pthread_t? = nil
        let status = pthread_create(&thread, nil, { argument in PlatformThread.enter(argument); return nil }, context)
        return (status, status == 0 ? thread : nil)
    }
}
#endif
