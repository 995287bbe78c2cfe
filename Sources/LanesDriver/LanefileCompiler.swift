import LanesPlatform

/// Compiles `Lanefile.swift` once with `swiftc` against the prebuilt `Lanes` module and caches the
/// executable under a key of everything that affects it: the Lanefile's content, the lanes version,
/// the compiler, lanes' own module files and the flags. Never mtimes of the Lanefile (CI clones are fresh).
struct LanefileCompiler {
    static let entryFileName = "LanesRunnerEntry.swift"
    static let entrySource = """
        import Lanes

        @main
        enum LanesRunnerEntry {
            static func main() async { await LanefileRunner.main(lanes) }
        }

        """

    let installation: Installation
    let cacheDirectory: String
    let environment: [String: String]

    /// Lanefiles are plain Swift 6: quick to compile (no optimizer), line tables for crash reports.
    /// On macOS the SDK recorded at install, so the compile does not depend on what xcode-select says now.
    var flags: [String] {
        ["-parse-as-library", "-swift-version", "6", "-Onone", "-wmo", "-gline-tables-only",
         "-module-name", "LanefileRunner",
         "-I", installation.modulesDirectory, "-L", installation.libraryDirectory, "-lLanes",
         "-Xlinker", "-rpath", "-Xlinker", installation.libraryDirectory]
            + (installation.sdk.map { ["-sdk", $0] } ?? [])
    }

    /// The cached runner's path for this Lanefile; it exists when it was compiled before. With
    /// package dependencies that were never built as declared, the path names no runner.
    func runnerPath(for lanefile: String) throws -> String {
        try runnerPath(for: LanefileSources(lanefile: lanefile), packages: { try $0.builtFolder() })
    }

    private func runnerPath(for sources: LanefileSources, packages: (PackageDependencies) throws -> String?) throws -> String {
        let swiftc = try resolvedCompiler()
        var hash = SHA256()
        hash.updatePart("lanes-runner-2")
        for part in toolchainParts(swiftc: swiftc) { hash.updatePart(part) }
        hash.updatePart(flags.joined(separator: "\u{0}"))
        hash.updatePart(Self.entrySource)
        try sources.hash(into: &hash)
        if let dependencies = dependencies(of: sources) {
            // The packages' folder is named by their key, so their flags carry it into this key.
            hash.updatePart(try packages(dependencies).map { PackageDependencies.compilerFlags(for: $0) }?.joined(separator: "\u{0}") ?? "unbuilt")
        }
        return "\(cacheDirectory)/runners/\(hash.hexDigest)/runner"
    }

    /// The compiler (its real file: an Xcode update replaces it, while the `/usr/bin/swiftc` shim stays
    /// the same), the SDK (an update rewrites its SDKSettings.json), lanes' modules (compiled and textual)
    /// and library.
    private func toolchainParts(swiftc: String) -> [String] {
        var parts = [LanesVersion.current, FilePath.fingerprint(FilePath.realPath(swiftc) ?? swiftc)]
        // `Lanes` re-exports the runtime: a runtime change alone must recompile Lanefiles too.
        for module in ["Lanes", "LanesRuntime"] {
            parts.append(FilePath.fingerprint(installation.modulesDirectory + "/\(module).swiftmodule"))
            parts.append(FilePath.fingerprint(installation.modulesDirectory + "/\(module).swiftinterface"))
        }
        parts.append(FilePath.fingerprint(installation.libraryDirectory + "/" + Installation.libraryFileName))
        if let sdk = installation.sdk {
            parts += [sdk, FilePath.fingerprint(sdk + "/SDKSettings.json")]
        }
        return parts
    }

    private func dependencies(of sources: LanefileSources) -> PackageDependencies? {
        guard let manifest = sources.manifest else { return nil }
        let swiftc = (try? resolvedCompiler()) ?? installation.swiftc
        return PackageDependencies(manifest: manifest, cacheDirectory: cacheDirectory, installation: installation,
                                   toolchainParts: toolchainParts(swiftc: swiftc))
    }

    /// Builds the packages when needed, then compiles into a fresh folder renamed into place, so a
    /// half-written runner is never run and two lanes compiling the same Lanefile at once both end
    /// with a whole runner. Returns the runner.
    @discardableResult
    func compile(_ lanefile: String) throws -> String {
        let sources = LanefileSources(lanefile: lanefile)
        for file in sources.files where try FilePath.readBytes(file).starts(with: [0xEF, 0xBB, 0xBF]) {
            // swiftc would name an invisible character at 1:1; say what it is and how to remove it.
            throw DriverError("\(file) starts with a UTF-8 byte-order mark (the invisible bytes EF BB BF), which Swift does not accept",
                              hint: "save it as UTF-8 without BOM (most editors: Save with Encoding > UTF-8)",
                              kind: .compilation)
        }
        let swiftc = try resolvedCompiler()
        var packageFlags: [String] = []
        if let dependencies = dependencies(of: sources) {
            var folder = try dependencies.builtFolder()
            if folder == nil {
                writeStandardError("Resolving and building the packages of \(dependencies.manifest) ...")
                folder = try dependencies.build(swiftc: swiftc)
            }
            packageFlags = folder.map(PackageDependencies.compilerFlags(for:)) ?? []
        }
        let runner = try runnerPath(for: sources, packages: { try $0.builtFolder() })
        let finalDirectory = FilePath.directory(of: runner)
        let runnersDirectory = FilePath.directory(of: finalDirectory)
        try FilePath.makeDirectories(runnersDirectory, mode: 0o700)
        removeAbandonedBuilds(in: runnersDirectory)
        let workDirectory = runnersDirectory + "/" + Self.workFolderName()
        try FilePath.makeDirectories(workDirectory, mode: 0o700)
        defer { FilePath.removeTree(workDirectory) }
        let entry = workDirectory + "/" + Self.entryFileName
        try AtomicFile.write(Self.entrySource, to: entry)

        let outcome = try CompilerRun.run([swiftc] + flags + packageFlags + sources.files + [entry, "-o", workDirectory + "/runner"])
        guard outcome.status == 0 else {
            writeStandardError(outcome.output)
            if outcome.output.contains(Self.entryFileName) && outcome.output.contains("'lanes'") {
                throw DriverError("\(lanefile) does not define the lanes",
                                  hint: "declare them at the top level: let lanes = Lanefile { Lane(...) { ... } }",
                                  kind: .compilation)
            }
            throw DriverError("\(lanefile) did not compile (see the errors above)", kind: .compilation)
        }
        if !Self.move(workDirectory, to: finalDirectory), !FilePath.exists(runner) {
            throw DriverError("cannot move the compiled Lanefile into \(finalDirectory): \(String(cString: strerror(errno)))",
                              kind: .configuration)
        }
        pruneRunners(in: runnersDirectory, keeping: finalDirectory)
        return runner
    }

    /// A work folder's name, after this process so an abandoned one can be told from a live one.
    static func workFolderName() -> String {
        "\(buildingPrefix)\(getpid())-\(UInt32.random(in: 0 ... .max))"
    }

    static func move(_ source: String, to destination: String) -> Bool {
        rename(source, destination) == 0
    }

    static let buildingPrefix = ".building-"

    /// Removes the work folders of compiles whose process is gone (killed mid-compile): they are
    /// named after the compiling process, so a live compile's folder is never touched.
    private func removeAbandonedBuilds(in directory: String) {
        for entry in FilePath.entries(of: directory) where entry.hasPrefix(Self.buildingPrefix) {
            let rest = entry.dropFirst(Self.buildingPrefix.count)
            guard let dash = rest.firstIndex(of: "-"), let pid = pid_t(rest[..<dash]) else { continue }
            if pid != getpid(), kill(pid, 0) != 0, errno == ESRCH { FilePath.removeTree(directory + "/" + entry) }
        }
    }

    /// How long a compiled runner is kept. Each edit of a Lanefile leaves its previous runner behind;
    /// pruning happens only when something compiles, so warm runs pay nothing for it, and a runner
    /// pruned while still in use is simply compiled again.
    static let runnerLifetimeSeconds = 30 * 24 * 60 * 60

    private func pruneRunners(in directory: String, keeping current: String) {
        let oldest = time(nil) - Self.runnerLifetimeSeconds
        for entry in FilePath.entries(of: directory) where !entry.hasPrefix(".") {
            let path = directory + "/" + entry
            var info = stat()
            guard path != current, stat(path + "/runner", &info) == 0 || stat(path, &info) == 0,
                  FileTimes.modificationSeconds(of: info) < oldest else { continue }
            FilePath.removeTree(path)
        }
    }

    /// The compiler's path as found, not resolved: `swiftc` is a link whose name selects the driver mode.
    private func resolvedCompiler() throws -> String {
        guard let path = FilePath.which(installation.swiftc, path: environment["PATH"]) else {
            throw DriverError("cannot find the Swift compiler '\(installation.swiftc)'",
                              hint: "put swiftc on PATH or set LANES_SWIFTC to its path", kind: .configuration)
        }
        return path
    }
}

func writeStandardError(_ text: String) {
    var bytes = Array(text.utf8)
    if bytes.last != UInt8(ascii: "\n") { bytes.append(UInt8(ascii: "\n")) }
    FileDescriptorIO.writeAll(bytes, to: 2)
}
