#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform
import LanesHTTP

/// A content-addressed store in a directory: the bytes go to `objects/ab/abcdef...` (named by their
/// SHA-256, so the same artifact is stored once), and each upload adds a JSON manifest under
/// `manifests/` naming it. Both are written to a temporary file and renamed, so a crash leaves no
/// half-written object or manifest.
public struct LocalStore: ArtifactDestination {
    public let root: String
    private let now: @Sendable () -> Int

    public init(root: String, now: @escaping @Sendable () -> Int = systemSeconds) {
        self.root = root
        self.now = now
    }

    /// One manifest: what was stored, from which build, when.
    public struct Manifest: Sendable, Hashable, Codable {
        public let name: String
        public let lane: String?
        public let configuration: String?
        public let commit: String?
        public let sha256: String
        public let size: Int64
        /// ISO 8601, UTC.
        public let time: String
        /// The object's path relative to the store's root.
        public let object: String
    }

    public func upload(file path: String, metadata: ArtifactMetadata, progress: any ProgressReporter) throws(UploadError) -> UploadReceipt {
        let source = try ArtifactFile.artifact(path)
        defer { source.close() }
        let name = FilePathName.last(path)
        let counter = TransferCounter(name: name, total: source.size, reporter: progress)
        try makeDirectory(root + "/objects")
        try makeDirectory(root + "/manifests")

        // Copy while hashing, into a temporary file in the objects directory (same file system: rename works).
        guard case let (temporary, descriptor)? = AtomicFile.openTemporary(prefix: "\(root)/objects/.incoming-") else {
            throw storeError("create a temporary file in \(root)/objects")
        }
        var renamed = false
        defer {
            if !renamed { unlink(temporary) }
        }
        let sha = Digest(.sha256)
        var buffer = [UInt8](repeating: 0, count: 1 << 20)
        var offset: Int64 = 0
        do {
            defer { close(descriptor) }
            while offset < source.size {
                let count = try source.readArtifact(into: &buffer, count: Int(min(Int64(buffer.count), source.size - offset)), at: offset)
                sha.update(Array(buffer[0..<count]))
                guard FileDescriptorIO.writeAll(Array(buffer[0..<count]), to: descriptor) else { throw storeError("write \(temporary)") }
                offset += Int64(count)
                counter.add(Int64(count))
            }
            guard fsync(descriptor) == 0 else { throw storeError("flush \(temporary)") }
        }
        let digest = sha.finish().hex
        let objectDirectory = "objects/\(digest.prefix(2))"
        let object = "\(objectDirectory)/\(digest)"
        try makeDirectory("\(root)/\(objectDirectory)")
        chmod(temporary, 0o444)
        guard rename(temporary, "\(root)/\(object)") == 0 else { throw storeError("store \(root)/\(object)") }
        renamed = true

        let seconds = now()
        let manifest = Manifest(name: name, lane: metadata.lane, configuration: metadata.configuration, commit: metadata.commit,
                                sha256: digest, size: source.size, time: Self.iso8601(seconds), object: object)
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
        let manifestPath = "\(root)/manifests/\(Self.compactTime(seconds))-\(digest.prefix(12))-\(Self.safe(name)).json"
        do {
            let data = try encoder.encode(manifest)
            try AtomicFile.write(Array(data) + [10], to: manifestPath)
        } catch {
            throw UploadError(.environment, "local store \(root): cannot write the manifest \(manifestPath): \(error)")
        }
        counter.finish()
        return UploadReceipt(destination: root, location: "\(root)/\(object)", size: source.size, sha256: digest,
                             details: ["manifest": manifestPath])
    }

    private func makeDirectory(_ path: String) throws(UploadError) {
        do { try FilePath.makeDirectories(path) } catch {
            throw UploadError(.environment, "local store \(root): cannot create \(path): \(error)", hint: "check the destination directory is writable")
        }
    }

    private func storeError(_ action: String) -> UploadError {
        UploadError(.environment, "local store \(root): cannot \(action): \(String(cString: strerror(errno)))")
    }

    static func iso8601(_ seconds: Int) -> String {
        let (date, stamp) = SigV4Signer.timestamps(seconds)
        let d = Array(date), t = Array(stamp.dropFirst(9))
        return "\(String(d[0..<4]))-\(String(d[4..<6]))-\(String(d[6..<8]))T\(String(t[0..<2])):\(String(t[2..<4])):\(String(t[4..<6]))Z"
    }

    static func compactTime(_ seconds: Int) -> String { SigV4Signer.timestamps(seconds).stamp }

    static func safe(_ name: String) -> String {
        String(name.map { $0.isLetter || $0.isNumber || $0 == "." || $0 == "-" || $0 == "_" ? $0 : "_" })
    }
}
