/// The Swift compiler an installation builds Lanefiles with, and what it says its version is.
public struct Toolchain: Sendable {
    /// The compiler as lanes finds it (`LANES_SWIFTC`, the recorded one, or `swiftc` on PATH).
    public let compiler: String
    /// Its full path, when found.
    public let path: String?
    /// The first line of `swiftc --version`, when it ran.
    public let version: String?

    /// `versionCache`: a private folder (the runner cache) where the version line is remembered
    /// per compiler, so that only the first `lanes --version` after a toolchain change runs it.
    public init(installation: Installation, environment: [String: String], versionCache: String? = nil) {
        compiler = installation.swiftc
        path = FilePath.which(installation.swiftc, path: environment["PATH"])
        version = path.flatMap { CompilerVersion.line(of: $0, cache: versionCache) }
    }

    public var summary: String {
        guard let path else { return "\(compiler) (not found: set LANES_SWIFTC or put swiftc on PATH)" }
        return "\(version ?? "version unknown") (\(path))"
    }
}

/// `swiftc --version`'s "Swift version" line. Running the compiler costs more than all of the rest
/// of `lanes --version`, so the line is kept in `cache/compiler-version` beside the compiler's
/// fingerprint (path, inode, size and time of the file the link resolves to): an updated toolchain
/// asks again.
enum CompilerVersion {
    static let cacheFileName = "compiler-version"

    static func line(of compiler: String, cache: String?) -> String? {
        let fingerprint = FilePath.fingerprint(FilePath.realPath(compiler) ?? compiler)
        let file = cache.map { $0 + "/" + cacheFileName }
        if let file, let text = try? FilePath.read(file) {
            let lines = text.split(separator: "\n", omittingEmptySubsequences: false)
            if lines.count >= 2, lines[0] == fingerprint, !lines[1].isEmpty { return String(lines[1]) }
        }
        guard let line = ToolOutput.compilerVersion(of: compiler) else { return nil }
        if let file { try? AtomicFile.write(fingerprint + "\n" + line + "\n", to: file, permissions: 0o600) }
        return line
    }
}

/// `lanes --version`: the version, the compiler Lanefiles are built with, where lanes is installed.
public struct VersionReport: Sendable {
    public let installation: Installation
    public let toolchain: Toolchain

    public init(installation: Installation, toolchain: Toolchain) {
        self.installation = installation
        self.toolchain = toolchain
    }

    public var rendered: String {
        """
        lanes \(LanesVersion.current)
        compiler:  \(toolchain.summary)
        installed: \(FilePath.directory(of: installation.toolExecutable)) (modules in \(installation.modulesDirectory))

        """
    }
}
