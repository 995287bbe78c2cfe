#if canImport(Darwin)
extension Installation {
    /// The file name of the `Lanes` library a compiled Lanefile links.
    /// SwiftPM gives it the install name `@rpath/libLanes.dylib`; the runner is linked with
    /// `-rpath` to the installed folder (`LanefileCompiler`), as on Linux.
    public static let libraryFileName = "libLanes.dylib"
}
#endif

#if canImport(Darwin)
extension RuntimeLinker {
    /// macOS keeps the Swift runtime in the OS; `make install` never makes a self-contained libLanes there.
    public static func locate(swiftc: String) -> RuntimeLinker? { nil }
}
#endif
