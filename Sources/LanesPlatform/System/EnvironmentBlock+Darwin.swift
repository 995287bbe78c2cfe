#if canImport(Darwin)
extension ProcessEnvironment {
    /// The process's `NAME=value` array, NULL-terminated. Swift does not see `environ` on Darwin;
    /// `_NSGetEnviron()` (crt_externs.h) returns its address.
    public static var block: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?> {
        // Typed as optional so this reads the same whether the SDK imports `char **` as optional or not.
        let pointer: UnsafeMutablePointer<UnsafeMutablePointer<CChar>?>? = _NSGetEnviron().pointee
        return pointer!
    }
}
#endif
