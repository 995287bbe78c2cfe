internal import LanesSigning
internal import LanesPlatform

/// What was packed, as the manifest JSON next to the artifact records it.
public struct ArtifactManifest: Sendable, Equatable {
    public var name: String
    public var version: String
    public var commit: String
    /// The artifact's file name (in the same folder as the manifest).
    public var file: String
    public var sha256: String
    public var size: Int
    /// UTC, ISO 8601: `2026-11-23T01:02:03Z`.
    public var buildTime: String

    /// `{"name": ..., "version": ..., "commit": ..., "file": ..., "sha256": ..., "size": ..., "buildTime": ...}`, keys sorted.
    public var json: String {
        let fields: [(String, String)] = [
            ("buildTime", Self.quoted(buildTime)), ("commit", Self.quoted(commit)), ("file", Self.quoted(file)),
            ("name", Self.quoted(name)), ("sha256", Self.quoted(sha256)), ("size", String(size)),
            ("version", Self.quoted(version)),
        ]
        return "{\n" + fields.map { "  \"\($0.0)\": \($0.1)" }.joined(separator: ",\n") + "\n}\n"
    }

    static func quoted(_ text: String) -> String { JSONText.quote(text) }

    /// Seconds since 1970 as `YYYY-MM-DDTHH:MM:SSZ`.
    public static func isoTime(secondsSince1970: Int) -> String {
        var time = time_t(secondsSince1970)
        var parts = tm()
        gmtime_r(&time, &parts)
        func two(_ value: Int32) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return "\(parts.tm_year + 1900)-\(two(parts.tm_mon + 1))-\(two(parts.tm_mday))T\(two(parts.tm_hour)):\(two(parts.tm_min)):\(two(parts.tm_sec))Z"
    }
}

/// A file to put in an artifact: where it is, and its name inside the archive.
public struct ArtifactEntry: Sendable, Equatable {
    public var sourcePath: String
    public var archiveName: String
    /// The folder the file must really be in (links resolved), such as the build folder: a product
    /// that is a link to a file elsewhere (a key, another user's file) is refused, never packed.
    public var containingFolder: String?

    public init(sourcePath: String, archiveName: String, containingFolder: String? = nil) {
        self.sourcePath = sourcePath
        self.archiveName = archiveName
        self.containingFolder = containingFolder
    }
}

/// The artifact and manifest that `build_swift_package` leaves in its output folder.
public struct PackedArtifact: Sendable, Equatable {
    public var artifactPath: String
    public var manifestPath: String
    public var manifest: ArtifactManifest
}

/// Packs built products into `NAME-VERSION.tar.gz` (gzip through zlib) plus `NAME-VERSION.manifest.json`;
/// both are written atomically.
public enum ArtifactPacker {
    public static func pack(name: String, version: String, commit: String, entries: [ArtifactEntry],
                            outputDirectory: String, buildTimeSecondsSince1970: Int) throws(BuildError) -> PackedArtifact {
        guard !entries.isEmpty else { throw .package(path: outputDirectory, problem: "nothing to pack for \(name)") }
        var tar = TarArchive()
        for entry in entries {
            if let folder = entry.containingFolder {
                guard let root = FilePath.realPath(folder), let real = FilePath.realPath(entry.sourcePath),
                      real.hasPrefix(root + "/") else {
                    throw .file(path: entry.sourcePath, problem: "is a link to a file outside \(folder); lanes packs only what the build made")
                }
                guard !FilePath.isDirectory(real) else { throw .file(path: entry.sourcePath, problem: "is a folder, not a built product") }
            }
            let contents: [UInt8]
            do { contents = try FilePath.readBytes(entry.sourcePath) } catch {
                throw .file(path: entry.sourcePath, problem: "cannot read it for the artifact: \(error)")
            }
            var status = stat()
            let mode = stat(entry.sourcePath, &status) == 0 ? Int(status.st_mode) & 0o777 : 0o644
            do {
                try tar.addFile(named: entry.archiveName, contents: contents, mode: mode, modificationTime: buildTimeSecondsSince1970)
            } catch {
                throw .package(path: entry.sourcePath, problem: "archive name \"\(entry.archiveName)\" is too long for tar")
            }
        }
        let compressed: [UInt8]
        do { compressed = try Zlib.deflate(tar.finished(), format: .gzip) } catch {
            throw .package(path: outputDirectory, problem: "gzip: \(error.message)")
        }
        let fileName = "\(name)-\(version).tar.gz"
        let artifactPath = LanesBuildFolders.join(outputDirectory, fileName)
        let manifestPath = LanesBuildFolders.join(outputDirectory, "\(name)-\(version).manifest.json")
        let manifest = ArtifactManifest(name: name, version: version, commit: commit, file: fileName,
                                        sha256: MessageDigest.hex(compressed, .sha256), size: compressed.count,
                                        buildTime: ArtifactManifest.isoTime(secondsSince1970: buildTimeSecondsSince1970))
        do {
            try FilePath.makeDirectories(outputDirectory)
            try AtomicFile.write(compressed, to: artifactPath)
            try AtomicFile.write(manifest.json, to: manifestPath)
        } catch {
            throw .file(path: outputDirectory, problem: "cannot write the artifact: \(error)")
        }
        return PackedArtifact(artifactPath: artifactPath, manifestPath: manifestPath, manifest: manifest)
    }
}
