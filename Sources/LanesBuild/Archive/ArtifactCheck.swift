internal import LanesSigning
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform

/// Checks an artifact against the manifest written next to it, before anything ships it: the file
/// is there, its size and SHA-256 are the manifest's, and the manifest names what is expected.
public enum ArtifactCheck {
    public static func verify(manifestPath: String, expectedName: String? = nil) throws(BuildError) -> ArtifactManifest {
        let manifest: ArtifactManifest
        do {
            let decoded = try JSONDecoder().decode(ManifestFields.self, from: Data(try FilePath.readBytes(manifestPath)))
            manifest = ArtifactManifest(name: decoded.name, version: decoded.version, commit: decoded.commit, file: decoded.file,
                                        sha256: decoded.sha256, size: decoded.size, buildTime: decoded.buildTime)
        } catch {
            throw .file(path: manifestPath, problem: "is not a readable artifact manifest: \(error)")
        }
        let artifactPath = LanesBuildFolders.join(FilePath.directory(of: manifestPath), manifest.file)
        let file: ArchiveFile
        do { file = try ArchiveFile(path: artifactPath) } catch {
            throw .artifactRefused(path: artifactPath, problem: "the manifest names it, but it cannot be read: \(error)")
        }
        guard file.size == manifest.size else {
            throw .artifactRefused(path: artifactPath, problem: "is \(file.size) bytes; the manifest says \(manifest.size)")
        }
        // Hashed a piece at a time: an artifact of many gigabytes is never read into memory.
        let running = MessageDigest.Running(.sha256)
        do { try file.forEachChunk(count: file.size) { running.update($0) } } catch {
            throw .artifactRefused(path: artifactPath, problem: "cannot be read to the end: \(error)")
        }
        let digest = running.finishHex()
        guard digest == manifest.sha256 else {
            throw .artifactRefused(path: artifactPath, problem: "has SHA-256 \(digest); the manifest says \(manifest.sha256)")
        }
        if let expectedName, manifest.name != expectedName {
            throw .artifactRefused(path: manifestPath, problem: "describes \(manifest.name), not \(expectedName)")
        }
        return manifest
    }

    private struct ManifestFields: Decodable {
        let name, version, commit, file, sha256, buildTime: String
        let size: Int
    }
}
