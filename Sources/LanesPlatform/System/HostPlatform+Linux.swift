#if os(Linux)
extension HostPlatform {
    /// True on macOS, where Xcode, `security` and the login keychain exist.
    public static let isMacOS = false
}
#endif
