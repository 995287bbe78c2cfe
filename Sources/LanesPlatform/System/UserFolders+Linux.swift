#if os(Linux)
extension UserFolders {
    /// The XDG Base Directory defaults.
    static let defaultCacheFolder = ".cache"
    static let defaultStateFolder = ".local/state"
}
#endif
