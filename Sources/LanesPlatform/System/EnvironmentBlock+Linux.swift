#if os(Linux)
extension ProcessEnvironment {
    /// The process's `NAME=value` array, NULL-terminated: what `posix_spawn` takes as `envp`.
    public static var block: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> { environ }
}
#endif
