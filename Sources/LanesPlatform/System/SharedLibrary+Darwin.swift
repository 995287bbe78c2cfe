#if canImport(Darwin)
extension Installation {
    /// The file name of the `Lanes` library a compiled Lanefile links.
    /// SwiftPM gives it the install name `@rpath/libLanes.dylib`; the runner is linked with
    /// `-rpath` to the installed folder (`LanefileCompiler`), as on Linux.
    public static let libraryFileName = "libLanes.dylib"
}
#endif
