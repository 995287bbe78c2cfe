#if os(Linux)
extension Installation {
    /// The file name of the `Lanes` library a compiled Lanefile links.
    public static let libraryFileName = "libLanes.so"
}
#endif

#if os(Linux)
extension RuntimeLinker {
    /// The toolchain's clang and its Swift image-registration object (`swiftrt.o`), found from the
    /// compiler's real path: `TOOLCHAIN/bin/swiftc` → `TOOLCHAIN/lib/swift/linux/ARCH/swiftrt.o`.
    public static func locate(swiftc: String) -> RuntimeLinker? {
        let binary = FilePath.directory(of: FilePath.realPath(swiftc) ?? swiftc)
        let toolchain = FilePath.directory(of: binary)
        var names = utsname()
        guard uname(&names) == 0 else { return nil }
        let machine = withUnsafeBytes(of: &names.machine) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
        let linker = RuntimeLinker(clang: binary + "/clang", runtimeObject: "\(toolchain)/lib/swift/linux/\(machine)/swiftrt.o")
        return FilePath.exists(linker.clang) && FilePath.exists(linker.runtimeObject) ? linker : nil
    }
}
#endif
