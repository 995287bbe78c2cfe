#if os(Linux)
extension Installation {
    /// The file name of the `Lanes` library a compiled Lanefile links.
    public static let libraryFileName = "libLanes.so"
}
#endif
