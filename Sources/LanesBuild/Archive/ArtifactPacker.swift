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
/// both are written atomically. Files stream through tar, gzip and SHA-256 into the artifact's
/// temporary file, a piece at a time: memory stays the same for a 6 GB product as for a small one.
public enum ArtifactPacker {
    public static func pack(name: String, version: String, commit: String, entries: [ArtifactEntry],
                            outputDirectory: String, buildTimeSecondsSince1970: Int) throws(BuildError) -> PackedArtifact {
        try pack(name: name, version: version, commit: commit, entries: entries, outputDirectory: outputDirectory,
                 buildTimeSecondsSince1970: buildTimeSecondsSince1970, largestUstarSize: 0o77777777777 + 1)
    }

    static func pack(name: String, version: String, commit: String, entries: [ArtifactEntry], outputDirectory: String,
                     buildTimeSecondsSince1970: Int, largestUstarSize: Int) throws(BuildError) -> PackedArtifact {
        guard !entries.isEmpty else { throw .package(path: outputDirectory, problem: "nothing to pack for \(name)") }
        // Every product is checked before anything is written.
        var files: [(entry: ArtifactEntry, file: ArchiveFile)] = []
        for entry in entries {
            var path = entry.sourcePath
            if let folder = entry.containingFolder {
                guard let root = FilePath.realPath(folder), let real = FilePath.realPath(entry.sourcePath),
                      real.hasPrefix(root + "/") else {
                    throw .file(path: entry.sourcePath, problem: "is a link to a file outside \(folder); lanes packs only what the build made")
                }
                guard !FilePath.isDirectory(real) else { throw .file(path: entry.sourcePath, problem: "is a folder, not a built product") }
                path = real
            }
            let file: ArchiveFile
            do { file = try ArchiveFile(path: path) } catch {
                throw .file(path: entry.sourcePath, problem: "cannot read it for the artifact: \(error)")
            }
            files.append((entry, file))
        }
        let fileName = "\(name)-\(version).tar.gz"
        let artifactPath = LanesBuildFolders.join(outputDirectory, fileName)
        let manifestPath = LanesBuildFolders.join(outputDirectory, "\(name)-\(version).manifest.json")
        let digest = MessageDigest.Running(.sha256)
        let size: Int
        do {
            try FilePath.makeDirectories(outputDirectory)
            let output = try AtomicFileStream(path: artifactPath)
            let gzip = try Zlib.Deflater(format: .gzip, level: 9) { compressed in
                digest.update(compressed)
                try output.write(compressed)
            }
            let tar = TarWriter(largestUstarSize: largestUstarSize) { try gzip.add($0) }
            for (entry, file) in files {
                try tar.beginFile(named: entry.archiveName, size: file.size, mode: file.mode & 0o777,
                                  modificationTime: buildTimeSecondsSince1970)
                try file.forEachChunk(count: file.size) { try gzip.add($0) }
                guard !file.grew else { throw BuildError.file(path: entry.sourcePath, problem: "changed while lanes packed it") }
                try tar.pad(file.size)
            }
            try tar.finish()
            try gzip.finish()
            size = output.offset
            try output.commit()
        } catch let error as BuildError {
            throw error
        } catch let error as Zlib.Failure {
            throw .package(path: outputDirectory, problem: "gzip: \(error.message)")
        } catch {
            throw .file(path: outputDirectory, problem: "cannot write the artifact: \(error)")
        }
        let manifest = ArtifactManifest(name: name, version: version, commit: commit, file: fileName,
                                        sha256: digest.finishHex(), size: size,
                                        buildTime: ArtifactManifest.isoTime(secondsSince1970: buildTimeSecondsSince1970))
        do { try AtomicFile.write(manifest.json, to: manifestPath) } catch {
            throw .file(path: outputDirectory, problem: "cannot write the manifest: \(error)")
        }
        return PackedArtifact(artifactPath: artifactPath, manifestPath: manifestPath, manifest: manifest)
    }
}
