import LanesPlatform

/// The Swift files that make up one Lanefile: `Lanefile.swift` and the `.swift` files directly in the
/// `lanes/` folder beside it (but `lanes/Package.swift`, the dependencies' manifest). They compile as
/// one module, so a lane, a helper or a configuration may live in any of them.
struct LanefileSources {
    static let folderName = "lanes"
    static let manifestName = "Package.swift"

    /// `Lanefile.swift` first, then the folder's files by name: the order is part of the cache key.
    let files: [String]
    /// `lanes/Package.swift` when the Lanefile depends on Swift packages.
    let manifest: String?

    init(lanefile: String) {
        let folder = FilePath.directory(of: lanefile) + "/" + Self.folderName
        let parts = FilePath.entries(of: folder)
            .filter { $0.hasSuffix(".swift") && !Self.isManifest($0) && !$0.hasPrefix(".") }
            .sorted()
            .map { folder + "/" + $0 }
            .filter { !FilePath.isDirectory($0) }
        files = [lanefile] + parts
        let manifest = folder + "/" + Self.manifestName
        self.manifest = FilePath.exists(manifest) ? manifest : nil
    }

    /// `Package.swift` and SwiftPM's version-specific manifests (`Package@swift-6.0.swift`).
    static func isManifest(_ name: String) -> Bool {
        name == manifestName || name.hasPrefix("Package@swift")
    }

    /// Each file's name and content: renaming, adding or removing a file changes the key, as does any edit.
    /// A first line `#sourceLocation(file: "...", line: 1)` is left out: it names where diagnostics
    /// point (the daemon's copy names the user's Lanefile), changes no line and no code, and paths
    /// are not part of the key, so the daemon's copy finds the runner `lanes list` compiled.
    func hash(into hash: inout SHA256) throws {
        hash.updatePart(String(files.count))
        for file in files {
            hash.updatePart(FilePath.name(of: file))
            hash.updatePart(Self.withoutSourceLocation(try FilePath.readBytes(file)))
        }
    }

    static func withoutSourceLocation(_ bytes: [UInt8]) -> ArraySlice<UInt8> {
        let prefix = LanefileCompiler.sourceLocationStart
        let suffix = LanefileCompiler.sourceLocationEnd
        guard bytes.starts(with: prefix), let newline = bytes.firstIndex(of: UInt8(ascii: "\n")),
              newline >= prefix.count + suffix.count, bytes[(newline - suffix.count)..<newline].elementsEqual(suffix)
        else { return bytes[...] }
        return bytes[(newline + 1)...]
    }
}
