import Lanes
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Compiles `Lanefile.swift` once with `swiftc` against the prebuilt `Lanes` module and caches the
/// executable under a key of everything that affects it: the Lanefile's content, the lanes version,
/// the compiler, lanes' own module files and the flags. Never mtimes of the Lanefile (CI clones are fresh).
struct LanefileCompiler {
    static let lanesVersion = "0.1.0"
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
    var flags: [String] {
        ["-parse-as-library", "-swift-version", "6", "-Onone", "-wmo", "-gline-tables-only",
         "-module-name", "LanefileRunner",
         "-I", installation.modulesDirectory, "-L", installation.libraryDirectory, "-lLanes",
         "-Xlinker", "-rpath", "-Xlinker", installation.libraryDirectory]
    }

    /// The cached runner for this Lanefile, and whether it still has to be compiled.
    func cachedRunner(for lanefile: String) throws -> (path: String, isCached: Bool) {
        let swiftc = try resolvedCompiler()
        var hash = ContentHash()
        hash.add("lanes-runner-1")
        hash.add(Self.lanesVersion)
        hash.add(FilePath.fingerprint(FilePath.realPath(swiftc) ?? swiftc))
        hash.add(FilePath.fingerprint(installation.modulesDirectory + "/Lanes.swiftmodule"))
        hash.add(FilePath.fingerprint(installation.libraryDirectory + "/libLanes.so"))
        hash.add(flags.joined(separator: "\u{0}"))
        hash.add(Self.entrySource)
        hash.add(try FilePath.readBytes(lanefile))
        let path = "\(cacheDirectory)/runners/\(hash.hexDigest)/runner"
        return (path, FilePath.exists(path))
    }

    /// Compiles into a fresh folder, then renames it into place, so a half-written runner is never run.
    func compile(_ lanefile: String, into runner: String, diagnostics: TextOutput) async throws {
        let swiftc = try resolvedCompiler()
        let finalDirectory = FilePath.directory(of: runner)
        let runnersDirectory = FilePath.directory(of: finalDirectory)
        try FilePath.makeDirectories(runnersDirectory)
        let workDirectory = "\(runnersDirectory)/.building-\(getpid())-\(UInt32.random(in: 0 ... .max))"
        try FilePath.makeDirectories(workDirectory)
        defer { Self.removeTree(workDirectory) }
        let entry = workDirectory + "/" + Self.entryFileName
        try AtomicFile.write(Self.entrySource, to: entry)

        let output = LineCollector()
        let arguments = [swiftc] + flags + [lanefile, entry, "-o", workDirectory + "/runner"]
        let outcome = try await SubprocessRunner(baseEnvironment: environment)
            .run(ProcessRequest(arguments, workingDirectory: FilePath.directory(of: lanefile))) { output.append($0) }
        guard outcome.succeeded else {
            for line in output.lines { diagnostics.writeLine(line) }
            if output.lines.contains(where: { $0.contains(Self.entryFileName) && $0.contains("'lanes'") }) {
                throw LanesError(.compilation, "\(lanefile) does not define the lanes",
                                 hint: "declare them at the top level: let lanes = Lanefile { Lane(...) { ... } }")
            }
            throw LanesError(.compilation, "\(lanefile) did not compile (see the errors above)")
        }
        if rename(workDirectory, finalDirectory) != 0, !FilePath.exists(runner) {
            throw LanesError(.environment, "cannot move the compiled Lanefile into \(finalDirectory): \(String(cString: strerror(errno)))")
        }
    }

    /// The compiler's path as found, not resolved: `swiftc` is a link whose name selects the driver mode.
    private func resolvedCompiler() throws -> String {
        guard let path = FilePath.which(installation.swiftc, path: environment["PATH"]) else {
            throw LanesError(.environment, "cannot find the Swift compiler '\(installation.swiftc)'",
                             hint: "put swiftc on PATH or set LANES_SWIFTC to its path")
        }
        return path
    }

    private static func removeTree(_ path: String) {
        guard FilePath.exists(path) else { return }
        if let directory = opendir(path) {
            while let entry = readdir(directory) {
                let name = withUnsafeBytes(of: entry.pointee.d_name) { String(decoding: $0.prefix { $0 != 0 }, as: UTF8.self) }
                if name == "." || name == ".." { continue }
                let child = path + "/" + name
                if FilePath.isDirectory(child) { removeTree(child) } else { unlink(child) }
            }
            closedir(directory)
        }
        rmdir(path)
    }
}
