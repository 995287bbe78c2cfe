#if canImport(Darwin)
extension UserFolders {
    /// The macOS conventions (File System Programming Guide): caches the system may purge, and
    /// support files the app owns.
    static let defaultCacheFolder = "Library/Caches"
    static let defaultStateFolder = "Library/Application Support"
}
#endif
