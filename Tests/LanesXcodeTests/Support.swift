import Foundation
import LanesXcode
import Testing

/// Where test data lives: the copied fixtures, and the shared corpus of real projects that must
/// never be committed (../shared/xcode/corpus next to the repository, or $LANES_SHARED_DIR/xcode/corpus).
enum TestData {
    static let fixtures = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures")
    static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()

    static var sharedDirectory: URL {
        if let override = ProcessInfo.processInfo.environment["LANES_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override)
        }
        return repositoryRoot.appendingPathComponent("../shared").standardizedFileURL
    }

    static var corpusDirectory: URL { sharedDirectory.appendingPathComponent("xcode/corpus") }

    /// The corpus pbxproj files, or an empty list when the folder is absent (the tests that need
    /// them are then reported as skipped, through `corpusAvailable`).
    static let corpusFiles: [URL] = {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: corpusDirectory.path)) ?? []
        return names.filter { $0.hasSuffix(".pbxproj") }.sorted().map { corpusDirectory.appendingPathComponent($0) }
    }()

    static var corpusAvailable: Bool { !corpusFiles.isEmpty }
    static let corpusAbsent: Comment = "the shared corpus folder (../shared/xcode/corpus or $LANES_SHARED_DIR/xcode/corpus) is absent"

    static var brewerPBXProj: URL { fixtures.appendingPathComponent("Brewer.xcodeproj/project.pbxproj") }

    static func bytes(_ url: URL) throws -> [UInt8] { Array(try Data(contentsOf: url)) }

    /// A fresh copy of the Brewer fixture (project + Configs) in a temporary directory.
    static func brewerCopy() throws -> URL {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-xcode-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        for item in ["Brewer.xcodeproj", "Configs"] {
            try FileManager.default.copyItem(at: fixtures.appendingPathComponent(item), to: directory.appendingPathComponent(item))
        }
        return directory
    }
}

/// Lines that differ between two texts of equal line structure, or the full unified picture otherwise.
func changedLines(_ before: String, _ after: String) -> (removed: [String], added: [String]) {
    let old = before.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let new = after.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
    let difference = new.difference(from: old)
    var removed: [String] = []
    var added: [String] = []
    for change in difference {
        switch change {
        case .remove(_, let line, _): removed.append(line)
        case .insert(_, let line, _): added.append(line)
        }
    }
    return (removed, added)
}
