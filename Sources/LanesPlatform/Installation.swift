/// Where lanes' files live: the `Lanes` module files and `libLanes.so` (`.dylib` on macOS) a Lanefile compiles against,
/// the `lanes-tool` binary that serves the subcommands, the templates, and the compiler lanes was
/// built with.
///
/// Installed (`make install`): `PREFIX/bin/lanes` with `PREFIX/lib/lanes/{lanes-tool,Modules,libLanes.so,templates,swiftc}`.
/// In a build folder (`swift build`): everything beside the executable, templates in the checkout
/// above it. `LANES_HOME` points at a folder of the installed shape instead.
public struct Installation: Sendable {
    public let modulesDirectory: String
    public let libraryDirectory: String
    public let toolExecutable: String
    public let templatesDirectory: String
    /// The compiler to build Lanefiles with: the one lanes was built with (Linux has no stable Swift ABI).
    public let swiftc: String
    /// Where a compiled Lanefile gets the Swift runtime from.
    public var runtime: Runtime = .toolchain

    @frozen public enum Runtime: String, Sendable {
        /// The toolchain's Swift libraries, linked by swiftc (a build folder; macOS).
        case toolchain
        /// `libLanes.so` itself, which `make install` links with the Swift runtime and Foundation
        /// inside (Tools/link-installed.sh, Linux): the runner is linked against it alone.
        case selfContained = "self-contained"
    }

    /// The file `make install` writes when libLanes carries the runtime (`Runtime.selfContained`).
    static let runtimeFile = "runtime"

    public static func locate(environment: [String: String]) throws -> Installation {
        if let home = environment["LANES_HOME"], !home.isEmpty {
            return try installed(at: home, environment: environment, origin: "LANES_HOME=\(home)")
        }
        let executableDirectory = FilePath.directory(of: try FilePath.executable())
        let prefixHome = FilePath.directory(of: executableDirectory) + "/lib/lanes"
        if FilePath.exists(prefixHome + "/Modules/Lanes.swiftmodule") {
            return try installed(at: prefixHome, environment: environment, origin: prefixHome)  // PREFIX/bin/lanes
        }
        if FilePath.exists(executableDirectory + "/" + recordedCompilerFile) {
            return try installed(at: executableDirectory, environment: environment, origin: executableDirectory)  // lanes-tool
        }
        guard FilePath.exists(executableDirectory + "/Modules/Lanes.swiftmodule") else {
            throw InstallationError("cannot find the Lanes module beside \(executableDirectory) or in \(prefixHome)",
                                    hint: "reinstall with `make install PREFIX=...`, or set LANES_HOME")
        }
        return Installation(
            modulesDirectory: executableDirectory + "/Modules",
            libraryDirectory: executableDirectory,
            toolExecutable: executableDirectory + "/lanes-tool",
            templatesDirectory: FilePath.findUpwards("templates/Lanefile.swift.mustache", from: executableDirectory)
                .map { FilePath.directory(of: $0) } ?? executableDirectory + "/templates",
            swiftc: environment["LANES_SWIFTC"] ?? "swiftc")
    }

    /// The file `make install` writes with the compiler's path.
    static let recordedCompilerFile = "swiftc"

    private static func installed(at home: String, environment: [String: String], origin: String) throws -> Installation {
        guard FilePath.exists(home + "/Modules/Lanes.swiftmodule") else {
            throw InstallationError("\(origin) has no Modules/Lanes.swiftmodule",
                                    hint: "reinstall with `make install PREFIX=...`")
        }
        let recorded = (try? FilePath.read(home + "/" + recordedCompilerFile)).flatMap { $0.split(separator: "\n").first.map(String.init) }
        var installation = Installation(
            modulesDirectory: home + "/Modules", libraryDirectory: home, toolExecutable: home + "/lanes-tool",
            templatesDirectory: home + "/templates", swiftc: environment["LANES_SWIFTC"] ?? recorded ?? "swiftc")
        if let text = try? FilePath.read(home + "/" + runtimeFile),
           let runtime = Runtime(rawValue: String(text.split(separator: "\n").first ?? "")) {
            installation.runtime = runtime
        }
        return installation
    }
}

/// What links a runner against a self-contained libLanes: the toolchain's clang (with lld) and the
/// object every Swift image starts with, which registers its metadata with the runtime. swiftc
/// would also link the toolchain's Swift libraries, a second runtime beside the one in libLanes.
public struct RuntimeLinker: Sendable, Equatable {
    public let clang: String
    public let runtimeObject: String
}
