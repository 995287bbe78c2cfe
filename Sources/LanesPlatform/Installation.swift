/// Where lanes' files live: the `Lanes` module files and `libLanes.so` (`.dylib` on macOS) a Lanefile compiles against,
/// the `lanes-tool` binary that serves the subcommands, the templates, and the compiler lanes was
/// built with.
///
/// Installed (`make install`): `PREFIX/bin/lanes` with `PREFIX/lib/lanes/{lanes-tool,Modules,libLanes.so,templates,swiftc}`,
/// on Linux `runtime` (`self-contained`: see `Runtime`), and on macOS `sdk`. `swiftc` holds the compiler's real path (on macOS `xcrun --find swiftc`, not the
/// `/usr/bin/swiftc` shim whose file never changes when Xcode does) and, on its second line, what
/// `swiftc --version` said at install; `sdk` the macOS SDK it compiled against (`xcrun --show-sdk-path`).
/// In a build folder (`swift build`): everything beside the executable, templates in the checkout
/// above it. `LANES_HOME` points at a folder of the installed shape instead.
public struct Installation: Sendable {
    public let modulesDirectory: String
    public let libraryDirectory: String
    public let toolExecutable: String
    public let templatesDirectory: String
    /// The compiler to build Lanefiles with: the one lanes was built with (Linux has no stable Swift ABI).
    public let swiftc: String
    /// The first line of `swiftc --version` when lanes was installed; nil in a build folder.
    public let compilerVersion: String?
    /// The SDK Lanefiles compile against (macOS installations); nil when the compiler finds its own.
    public let sdk: String?
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
        if hasLanesModule(in: prefixHome + "/Modules") {
            return try installed(at: prefixHome, environment: environment, origin: prefixHome)  // PREFIX/bin/lanes
        }
        if FilePath.exists(executableDirectory + "/" + recordedCompilerFile) {
            return try installed(at: executableDirectory, environment: environment, origin: executableDirectory)  // lanes-tool
        }
        guard hasLanesModule(in: executableDirectory + "/Modules") else {
            throw InstallationError("cannot find the Lanes module beside \(executableDirectory) or in \(prefixHome)",
                                    hint: "reinstall with `make install PREFIX=...`, or set LANES_HOME")
        }
        return Installation(
            modulesDirectory: executableDirectory + "/Modules",
            libraryDirectory: executableDirectory,
            toolExecutable: executableDirectory + "/lanes-tool",
            templatesDirectory: FilePath.findUpwards("templates/Lanefile.swift.mustache", from: executableDirectory)
                .map { FilePath.directory(of: $0) } ?? executableDirectory + "/templates",
            swiftc: environment["LANES_SWIFTC"] ?? "swiftc", compilerVersion: nil, sdk: nil)
    }

    /// A compiled module, or its textual interface: a compiler other than the one that built the
    /// `.swiftmodule` (a new Xcode) rebuilds the module from the interface.
    static func hasLanesModule(in directory: String) -> Bool {
        FilePath.exists(directory + "/Lanes.swiftmodule") || FilePath.exists(directory + "/Lanes.swiftinterface")
    }

    /// The file `make install` writes with the compiler's path and version.
    static let recordedCompilerFile = "swiftc"
    /// The file `make install` writes on macOS with the SDK's path.
    static let recordedSDKFile = "sdk"

    private static func installed(at home: String, environment: [String: String], origin: String) throws -> Installation {
        guard hasLanesModule(in: home + "/Modules") else {
            throw InstallationError("\(origin) has no Modules/Lanes.swiftmodule (or .swiftinterface)",
                                    hint: "reinstall with `make install PREFIX=...`")
        }
        let compilerLines = (try? FilePath.read(home + "/" + recordedCompilerFile))?.split(separator: "\n").map(String.init) ?? []
        let sdk = (try? FilePath.read(home + "/" + recordedSDKFile))?.split(separator: "\n").first.map(String.init)
        let overridden = environment["LANES_SWIFTC"].map { !$0.isEmpty } ?? false
        var installation = Installation(
            modulesDirectory: home + "/Modules", libraryDirectory: home, toolExecutable: home + "/lanes-tool",
            templatesDirectory: home + "/templates", swiftc: overridden ? environment["LANES_SWIFTC"]! : compilerLines.first ?? "swiftc",
            // A compiler chosen by LANES_SWIFTC is not the one recorded: its version was never recorded.
            compilerVersion: overridden ? nil : compilerLines.dropFirst().first, sdk: sdk)
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
