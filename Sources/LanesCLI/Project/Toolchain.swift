import Foundation
import LanesPlatform

/// The Swift compiler an installation builds Lanefiles with, and what it says its version is.
struct Toolchain {
    /// The compiler as lanes finds it (`LANES_SWIFTC`, the recorded one, or `swiftc` on PATH).
    let compiler: String
    /// Its full path, when found.
    let path: String?
    /// The first line of `swiftc --version`, when it ran.
    let version: String?

    init(installation: Installation, environment: [String: String]) {
        compiler = installation.swiftc
        path = FilePath.which(installation.swiftc, path: environment["PATH"])
        version = path.flatMap(ToolOutput.compilerVersion(of:))
    }

    var summary: String {
        guard let path else { return "\(compiler) (not found: set LANES_SWIFTC or put swiftc on PATH)" }
        return "\(version ?? "version unknown") (\(path))"
    }

}

/// `lanes --version`: the version, the compiler Lanefiles are built with, where lanes is installed.
struct VersionReport {
    let installation: Installation
    let toolchain: Toolchain

    var rendered: String {
        """
        lanes \(LanesVersion.current)
        compiler:  \(toolchain.summary)
        installed: \(FilePath.directory(of: installation.toolExecutable)) (modules in \(installation.modulesDirectory))

        """
    }
}
