#if os(Linux)
extension FilePath {
    /// The kernel's link to the running executable.
    static func executablePathFromSystem() -> String? { realPath("/proc/self/exe") }
}
#endif
