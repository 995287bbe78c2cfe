import Lanes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Where the files a Lanefile compiles against live: the `Lanes` module files, `libLanes.so`, the
/// templates, and the compiler lanes was built with.
///
/// Installed (`make install`): `PREFIX/bin/lanes` with `PREFIX/lib/lanes/{Modules,libLanes.so,templates,swiftc}`.
/// In a build folder (`swift build`): `Modules/` and `libLanes.so` beside the executable, templates in
/// the checkout above it. `LANES_HOME` points at a folder of the installed shape instead.
struct Installation {
    let modulesDirectory: String
    let libraryDirectory: String
    let templatesDirectory: String
    /// The compiler to build Lanefiles with: the one lanes was built with (Linux has no stable Swift ABI).
    let swiftc: String

    static func locate(environment: [String: String]) throws -> Installation {
        if let home = environment["LANES_HOME"], !home.isEmpty {
            return try installed(at: home, environment: environment, origin: "LANES_HOME=\(home)")
        }
        let executableDirectory = FilePath.directory(of: try FilePath.executable())
        let prefixHome = FilePath.directory(of: executableDirectory) + "/lib/lanes"
        if FilePath.exists(prefixHome + "/Modules/Lanes.swiftmodule") {
            return try installed(at: prefixHome, environment: environment, origin: prefixHome)
        }
        guard FilePath.exists(executableDirectory + "/Modules/Lanes.swiftmodule") else {
            throw LanesError(.environment, 
                "cannot find the Lanes module beside \(executableDirectory) or in \(prefixHome)",
                hint: "reinstall with `make install PREFIX=...`, or set LANES_HOME")
        }
        return Installation(
            modulesDirectory: executableDirectory + "/Modules",
            libraryDirectory: executableDirectory,
            templatesDirectory: FilePath.findUpwards("templates/Lanefile.swift.mustache", from: executableDirectory)
                .map { FilePath.directory(of: $0) } ?? executableDirectory + "/templates",
            swiftc: environment["LANES_SWIFTC"] ?? "swiftc")
    }

    private static func installed(at home: String, environment: [String: String], origin: String) throws -> Installation {
        guard FilePath.exists(home + "/Modules/Lanes.swiftmodule") else {
            throw LanesError(.environment, "\(origin) has no Modules/Lanes.swiftmodule")
        }
        let recorded = (try? FilePath.read(home + "/swiftc")).map { $0.split(separator: "\n").first.map(String.init) ?? "" }
        return Installation(
            modulesDirectory: home + "/Modules", libraryDirectory: home, templatesDirectory: home + "/templates",
            swiftc: environment["LANES_SWIFTC"] ?? recorded ?? "swiftc")
    }
}
