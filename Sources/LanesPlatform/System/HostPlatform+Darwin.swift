#if canImport(Darwin)
extension HostPlatform {
    /// True on macOS, where Xcode, `security` and the login keychain exist.
    public static let isMacOS = true
}
#endif
