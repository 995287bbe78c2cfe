import LanesPlatform

/// The Swift packages a Lanefile depends on (`lanes/Package.swift`), built once by `lanes-tool` with
/// SwiftPM into `CACHE/packages/builds/KEY/` (`lib/libLanefilePackages.so` and `Modules/`).
///
/// The key is the manifest, the pins (`lanes/Package.resolved`, which the build writes) and the
/// content of every local (path) package, so a new requirement, a new pinned version or an edit of a
/// local package builds again, and nothing else does. A warm start reads one small file naming the
/// local packages and hashes their files; it never runs SwiftPM.
struct PackageDependencies {
    static let libraryName = "LanefilePackages"
    static let localPackagesFile = "local-packages"
    static let completeMarker = "complete"

    let manifest: String
    let cacheDirectory: String
    let installation: Installation
    /// The compiler and lanes' own module files: packages built against other ones are stale.
    let toolchainParts: [String]

    var lanesFolder: String { FilePath.directory(of: manifest) }
    var resolvedFile: String { lanesFolder + "/Package.resolved" }
    private var packagesDirectory: String { cacheDirectory + "/packages" }

    /// The manifest and its pins, with the toolchain.
    func manifestKey() throws -> String {
        var hash = SHA256()
        hash.updatePart("lanes-packages-1")
        for part in toolchainParts { hash.updatePart(part) }
        hash.updatePart(try FilePath.readBytes(manifest))
        hash.updatePart(FilePath.exists(resolvedFile) ? try FilePath.readBytes(resolvedFile) : [])
        return hash.hexDigest
    }

    /// The folder of the packages as currently declared, or nil when they have not been built so.
    func builtFolder() throws -> String? {
        let key = try manifestKey()
        guard let locals = try? FilePath.read("\(packagesDirectory)/manifests/\(key)") else { return nil }
        let folder = "\(packagesDirectory)/builds/\(try buildKey(manifestKey: key, localPackages: Self.lines(locals)))"
        return FilePath.exists(folder + "/" + Self.completeMarker) ? folder : nil
    }

    /// Resolves and builds with `lanes-tool` (SwiftPM needs Foundation; the driver stays without it).
    /// A failure leaves every earlier build in place.
    func build(swiftc: String) throws -> String {
        let builds = packagesDirectory + "/builds"
        try FilePath.makeDirectories(builds, mode: 0o700)
        try FilePath.makeDirectories(packagesDirectory + "/manifests", mode: 0o700)
        let staging = packagesDirectory + "/" + LanefileCompiler.workFolderName()
        defer { FilePath.removeTree(staging) }
        // One SwiftPM scratch folder per project, so a changed dependency rebuilds incrementally.
        var folderHash = SHA256()
        folderHash.updatePart(lanesFolder)
        let scratch = "\(packagesDirectory)/scratch/\(folderHash.hexDigest.prefix(16))"
        let outcome = try CompilerRun.run([
            installation.toolExecutable, "packages", "build",
            "--manifest", manifest, "--scratch", scratch, "--output", staging,
            "--modules", installation.modulesDirectory, "--library", installation.libraryDirectory, "--swiftc", swiftc,
        ] + (installation.runtime == .selfContained ? ["--static"] : []))
        guard outcome.status == 0 else {
            // The tool's message names the package and the manifest line; earlier builds stay cached.
            writeStandardError(outcome.output)
            throw DriverError.alreadyReported(exitStatus: outcome.status)
        }
        // The build may have written Package.resolved: the key is taken after it.
        let key = try manifestKey()
        let locals = try FilePath.read(staging + "/" + Self.localPackagesFile)
        let folder = "\(builds)/\(try buildKey(manifestKey: key, localPackages: Self.lines(locals)))"
        try AtomicFile.write(locals, to: "\(packagesDirectory)/manifests/\(key)")
        if FilePath.exists(folder + "/" + Self.completeMarker) { return folder }
        FilePath.removeTree(folder)
        try AtomicFile.write("", to: staging + "/" + Self.completeMarker)
        guard LanefileCompiler.move(staging, to: folder) || FilePath.exists(folder + "/" + Self.completeMarker) else {
            throw DriverError("cannot move the built packages into \(folder)", kind: .configuration)
        }
        return folder
    }

    /// Flags that let the runner import the packages' modules (`compile`) and link their library
    /// (`link`: swiftc's for the shared library, clang's for the static one a self-contained runtime takes).
    struct Flags {
        let compile: [String]
        let link: [String]
        var all: [String] { compile + link }
    }

    static func flags(for folder: String, runtime: Installation.Runtime) -> Flags {
        switch runtime {
        case .toolchain:
            return Flags(compile: ["-I", folder + "/Modules"],
                         link: ["-L", folder + "/lib", "-l" + libraryName, "-Xlinker", "-rpath", "-Xlinker", folder + "/lib"])
        case .selfContained:
            // Whole: a conformance nothing names (a registered step) must still reach the runner.
            return Flags(compile: ["-I", folder + "/Modules"],
                         link: ["-Wl,--whole-archive", folder + "/lib/lib\(libraryName).a", "-Wl,--no-whole-archive"])
        }
    }

    private func buildKey(manifestKey: String, localPackages: [String]) throws -> String {
        var hash = SHA256()
        hash.updatePart(manifestKey)
        for root in localPackages {
            hash.updatePart(root)
            try Self.hashTree(root, relative: "", into: &hash, depth: 0)
        }
        return hash.hexDigest
    }

    /// Every file of a local package by relative path and content; hidden entries (`.build`, `.git`,
    /// `.swiftpm`) are SwiftPM's and git's, not the package's.
    private static func hashTree(_ root: String, relative: String, into hash: inout SHA256, depth: Int) throws {
        guard depth < 32 else { return }
        let folder = relative.isEmpty ? root : root + "/" + relative
        for name in FilePath.entries(of: folder).sorted() where !name.hasPrefix(".") {
            let path = relative.isEmpty ? name : relative + "/" + name
            if FilePath.isDirectory(root + "/" + path) {
                try hashTree(root, relative: path, into: &hash, depth: depth + 1)
            } else {
                hash.updatePart(path)
                hash.updatePart((try? FilePath.readBytes(root + "/" + path)) ?? [])
            }
        }
    }

    private static func lines(_ text: String) -> [String] {
        text.split(separator: "\n").map(String.init)
    }
}
