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

    /// Lanefiles are plain Swift 6 glue, compiled for compile time (200 lanes of 20 steps, measured):
    /// `-Onone`, as `-O` and `-Osize` take 2.5 to 3 times its CPU (the SIL optimizer over every lane body)
    /// for objects a quarter smaller; no debug info, as line tables cost 15 to 20% of the compile and
    /// a crash in a Lanefile still names its file and line in the message of a `!` on nil, a
    /// `fatalError` or a `precondition` (`-Onone` keeps them); only a backtrace's frames have no lines.
    /// Against a self-contained libLanes the compiler only writes an object (`RuntimeLinker` links it).
    /// On macOS the SDK recorded at install, so the compile does not depend on what xcode-select says now.
    var flags: [String] {
        // The module cache in the runner cache: modules a compiler builds from lanes' .swiftinterface
        // files (a release archive used by another Swift) are kept with the runners, as CI caches them.
        let common = ["-parse-as-library", "-swift-version", "6", "-Onone", "-wmo",
                      "-module-name", "LanefileRunner", "-I", installation.modulesDirectory,
                      "-module-cache-path", cacheDirectory + "/module-cache"]
        let sdk = installation.sdk.map { ["-sdk", $0] } ?? []
        switch installation.runtime {
        case .toolchain:
            return common + ["-L", installation.libraryDirectory, "-lLanes",
                             "-Xlinker", "-rpath", "-Xlinker", installation.libraryDirectory] + sdk
        case .selfContained:
            return common + ["-c"] + sdk
        }
    }

    /// The cached runner's path for this Lanefile; it exists when it was compiled before. With
    /// package dependencies that were never built as declared, the path names no runner.
    func runnerPath(for lanefile: String) throws -> String {
        try runnerPath(for: LanefileSources(lanefile: lanefile), packages: { try $0.builtFolder() })
    }

    private func runnerPath(for sources: LanefileSources, packages: (PackageDependencies) throws -> String?) throws -> String {
        let swiftc = try resolvedCompiler()
        var hash = SHA256()
        hash.updatePart("lanes-runner-3")
        for part in toolchainParts(swiftc: swiftc) { hash.updatePart(part) }
        hash.updatePart(flags.joined(separator: "\u{0}"))
        hash.updatePart(Self.entrySource)
        try sources.hash(into: &hash)
        if let dependencies = dependencies(of: sources) {
            // The packages' folder is named by their key, so their flags carry it into this key.
            hash.updatePart(try packages(dependencies).map { PackageDependencies.flags(for: $0, runtime: installation.runtime).all }?
                .joined(separator: "\u{0}") ?? "unbuilt")
        }
        return "\(cacheDirectory)/runners/\(hash.hexDigest)/runner"
    }

    /// The compiler (its real file: an Xcode update replaces it, while the `/usr/bin/swiftc` shim stays
    /// the same), the SDK (an update rewrites its SDKSettings.json), lanes' modules (compiled and textual)
    /// and library.
    private func toolchainParts(swiftc: String) -> [String] {
        var parts = [LanesVersion.current, installation.runtime.rawValue,
                     FilePath.fingerprint(FilePath.realPath(swiftc) ?? swiftc)]
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
        var packageFlags = PackageDependencies.Flags(compile: [], link: [])
        if let dependencies = dependencies(of: sources) {
            var folder = try dependencies.builtFolder()
            if folder == nil {
                writeStandardError("Resolving and building the packages of \(dependencies.manifest) ...")
                folder = try dependencies.build(swiftc: swiftc)
            }
            packageFlags = folder.map { PackageDependencies.flags(for: $0, runtime: installation.runtime) } ?? packageFlags
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

        let output = workDirectory + "/runner"
        var objects = [output + ".o"]
        // With several threads the compiler generates the code of each file on one of them.
        func compile(_ files: [String], threads: Int = 1) throws -> CompilerRun.Outcome {
            let parallel = threads > 1 ? ["-num-threads", String(threads)] : []
            switch installation.runtime {
            case .toolchain:
                return try CompilerRun.run([swiftc] + flags + parallel + packageFlags.compile + packageFlags.link + files + [entry, "-o", output])
            case .selfContained where threads > 1:
                let map = try Self.writeObjectMap(for: files + [entry], in: workDirectory)
                objects = map.objects
                return try CompilerRun.run([swiftc] + flags + parallel + packageFlags.compile + files + [entry, "-output-file-map", map.path])
            case .selfContained:
                objects = [output + ".o"]
                return try CompilerRun.run([swiftc] + flags + packageFlags.compile + files + [entry, "-o", output + ".o"])
            }
        }
        let split = try Self.splitSources(sources.files, into: workDirectory)
        let threads = Self.compileThreads()
        var outcome: CompilerRun.Outcome
        if threads > 1, let parts = try Self.partSources(sources.files, split: split, into: workDirectory) {
            outcome = try compile(parts, threads: threads)
            // Something only its own file sees (a helper in an `#if`): compiled as one file, as below.
            if outcome.status != 0 { outcome = try compile(split) }
        } else {
            outcome = try compile(split)
        }
        if outcome.status != 0, outcome.status < 128, outcome.output.allSatisfy(\.isWhitespace) {
            // A compiler that ends with a failure status and not one word (seen once on a loaded CI machine,
            // status 127) is run once more before the Lanefile is blamed; a signal is not retried.
            writeStandardError("The compiler ended with status \(outcome.status) and printed nothing; compiling once more ...")
            outcome = try compile(split)
        }
        if outcome.status != 0, split != sources.files,
           outcome.output.contains(LanefileSplitter.entryFunction) || outcome.output.contains(LanefileSplitter.entriesLabel) {
            // A mistake inside a block that only the split form shows oddly: say it as the user wrote it.
            outcome = try compile(sources.files)
        }
        guard outcome.status == 0 else {
            writeStandardError(outcome.output)
            if outcome.output.contains(Self.entryFileName) && outcome.output.contains("'lanes'") {
                throw DriverError("\(lanefile) does not define the lanes",
                                  hint: "declare them at the top level: let lanes = Lanefile { Lane(...) { ... } }",
                                  kind: .compilation)
            }
            // A compiler killed (memory, a signal) prints nothing: say how it ended instead of pointing at no errors.
            if outcome.output.allSatisfy(\.isWhitespace) {
                throw DriverError("\(lanefile) did not compile: the compiler printed nothing and exited with status \(outcome.status)" +
                                  (outcome.status > 128 ? " (signal \(outcome.status - 128))" : ""), kind: .compilation)
            }
            throw DriverError("\(lanefile) did not compile (see the errors above)", kind: .compilation)
        }
        if installation.runtime == .selfContained {
            try link(objects, packages: packageFlags.link, swiftc: swiftc, into: output, lanefile: lanefile)
            // The runner has them; the cache (which CI keeps) need not.
            for object in objects { _ = FilePath.removeEntry(object) }
        }
        // Kept in the folder that becomes the cache entry, so it appears and goes with the runner.
        if let listing = Self.listing(by: output, project: FilePath.directory(of: lanefile), environment: environment) {
            try? AtomicFile.write(listing, to: workDirectory + "/" + RunnerListing.fileName, permissions: 0o600)
        }
        if !Self.move(workDirectory, to: finalDirectory), !FilePath.exists(runner) {
            throw DriverError("cannot move the compiled Lanefile into \(finalDirectory): \(String(cString: strerror(errno)))",
                              kind: .configuration)
        }
        pruneRunners(in: runnersDirectory, keeping: finalDirectory)
        return runner
    }

    /// The sources as compiled: each one with a `Lanefile { ... }` block split (`LanefileSplitter`) is
    /// written to the work folder behind a `#sourceLocation` naming the original, whose lines and
    /// columns it keeps, so diagnostics, `#line` and crash reports point into the user's file.
    static func splitSources(_ files: [String], into workDirectory: String) throws -> [String] {
        try files.enumerated().map { index, file in
            guard let split = LanefileSplitter.split(try FilePath.readBytes(file)) else { return file }
            let copy = "\(workDirectory)/split-\(index)-\(FilePath.name(of: file))"
            try AtomicFile.write(Array("#sourceLocation(file: \"\(sourceLocationLiteral(file))\", line: 1)\n".utf8) + split, to: copy)
            return copy
        }
    }

    /// `path` as the content of a string literal in a `#sourceLocation`.
    static func sourceLocationLiteral(_ path: String) -> String {
        path.replacing("\\", with: "\\\\").replacing("\"", with: "\\\"")
    }

    static let sourceLocationStart = Array("#sourceLocation(file: \"".utf8)
    static let sourceLocationEnd = Array("\", line: 1)".utf8)

    /// How many threads generate a Lanefile's code: the processors online, up to 8.
    static func compileThreads() -> Int {
        min(8, ParallelWorkers.processorCount)
    }

    /// Entries of a block per file when a Lanefile is cut into parts (`LanefileSplitter.parts`):
    /// enough files for every thread, few enough that each one's fixed cost stays small.
    static let entriesPerPart = 16

    /// The sources cut into parts for the compiler's threads: a source with a block of more than
    /// `entriesPerPart` entries becomes its main file and its parts (behind `#sourceLocation`s naming
    /// the original), any other source stays as `split` has it. Nil when no source was cut.
    static func partSources(_ files: [String], split: [String], into workDirectory: String) throws -> [String]? {
        var cut = false
        var result: [String] = []
        for (index, file) in files.enumerated() {
            // The daemon's copy names the user's file on its first line: the parts name it too.
            let bytes = try FilePath.readBytes(file)
            let source = LanefileSources.withoutSourceLocation(bytes)
            let named = source.count == bytes.count ? sourceLocationLiteral(file)
                : String(decoding: bytes[Self.sourceLocationStart.count..<(bytes.count - source.count - Self.sourceLocationEnd.count - 1)], as: UTF8.self)
            guard let parts = LanefileSplitter.parts(Array(source), file: named, prefix: "\(LanefileSplitter.entryFunction)_\(index)",
                                                     entriesPerPart: entriesPerPart) else {
                result.append(split[index])
                continue
            }
            cut = true
            // Names unique in the module: the compiler refuses two files of the same name.
            let main = "\(workDirectory)/part-\(index)-main-\(FilePath.name(of: file))"
            try AtomicFile.write(parts.main, to: main)
            result.append(main)
            for (number, part) in parts.parts.enumerated() {
                let path = "\(workDirectory)/part-\(index)-\(number).swift"
                try AtomicFile.write(part, to: path)
                result.append(path)
            }
        }
        return cut ? result : nil
    }

    /// An output file map naming an object for each source, for a compile on several threads.
    static func writeObjectMap(for sources: [String], in workDirectory: String) throws -> (path: String, objects: [String]) {
        let objects = sources.indices.map { "\(workDirectory)/object-\($0).o" }
        let entries = zip(sources, objects).map { "\(JSONText.quote($0)): {\"object\": \(JSONText.quote($1))}" }
        let path = workDirectory + "/objects.json"
        try AtomicFile.write("{\n" + entries.joined(separator: ",\n") + "\n}\n", to: path)
        return (path, objects)
    }

    /// Links the Lanefile's objects against the self-contained libLanes (`Installation.Runtime`) with
    /// the toolchain's clang and lld: no Swift library of the toolchain, whose runtime would be a
    /// second one beside libLanes'.
    private func link(_ objects: [String], packages: [String], swiftc: String, into runner: String, lanefile: String) throws {
        guard let linker = RuntimeLinker.locate(swiftc: swiftc) else {
            throw DriverError("cannot find clang and swiftrt.o in the toolchain of \(swiftc), which link Lanefiles against \(installation.libraryDirectory)",
                              hint: "use the Swift toolchain lanes was installed with (LANES_SWIFTC)", kind: .configuration)
        }
        let outcome = try CompilerRun.run([linker.clang, "-fuse-ld=lld", linker.runtimeObject] + objects + packages
            + ["-L", installation.libraryDirectory, "-lLanes", "-Wl,-rpath," + installation.libraryDirectory, "-o", runner])
        guard outcome.status == 0 else {
            writeStandardError(outcome.output)
            throw DriverError("\(lanefile) compiled but did not link (see the errors above)",
                              hint: outcome.output.contains("undefined symbol")
                                  ? "a module the Lanefile imports is not in lanes' runtime: it carries Swift's standard modules and Foundation, not FoundationNetworking or FoundationXML"
                                  : nil,
                              kind: .compilation)
        }
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

    /// The new runner's `list --json` (`RunnerListing`), run once in the loader's variables only, so
    /// nothing of the user's environment can be in it; nil when it cannot list (a bad schedule: then
    /// the commands that read the listing start the runner, which says why).
    static func listing(by runner: String, project: String, environment: [String: String]) -> [UInt8]? {
        var child = ChildProcess([runner, "--project-dir", project, "list", "--json"],
                                 environment: RunnerListing.environment(from: environment), workingDirectory: project)
        child.ownProcessGroup = false  // quick: Ctrl-C at the terminal reaches it directly
        var output: [UInt8] = []
        let status = try? child.runCapturingOutput(input: nil, started: { _ in }) { stream, bytes in
            if stream == .standardOutput { output.append(contentsOf: bytes) }
        }
        return status == .exited(0) ? output : nil
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
