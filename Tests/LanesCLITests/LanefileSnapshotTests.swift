import Foundation
import LanesTestSupport
import Testing
@testable import LanesCommands

/// The daemon runs a copy of the Lanefile, so a broken edit keeps the previous one running; the copy
/// must carry the `lanes/` folder (parts, manifest, pins) and where the manifest's relative paths start.
@Suite(.timeLimit(.minutes(10))) struct LanefileSnapshotTests {
    @Test func theCopyCarriesTheLanesFolderAndTheManifestsOrigin() throws {
        let project = LanesCommandLine.temporaryDirectory("snapshot")
        let state = project.appendingPathComponent(".lanes/daemon").path
        try FileManager.default.createDirectory(at: project.appendingPathComponent("lanes/Nested"), withIntermediateDirectories: true)
        let files = ["Lanefile.swift": "import Lanes\n", "lanes/Helpers.swift": "let x = 1\n",
                     "lanes/Package.swift": "// manifest\n", "lanes/Package.resolved": "{}\n", "lanes/Nested/Skip.swift": "nope\n"]
        for (path, text) in files { try text.write(to: project.appendingPathComponent(path), atomically: true, encoding: .utf8) }
        let snapshot = LanefileSnapshot(lanefile: project.appendingPathComponent("Lanefile.swift").path, stateDirectory: state)
        let candidate = try snapshot.prepareCandidate()
        let copies = URL(fileURLWithPath: candidate).deletingLastPathComponent().appendingPathComponent("lanes")
        #expect(try String(contentsOf: copies.appendingPathComponent("Helpers.swift"), encoding: .utf8) == "let x = 1\n")
        #expect(FileManager.default.fileExists(atPath: copies.appendingPathComponent("Package.swift").path))
        #expect(FileManager.default.fileExists(atPath: copies.appendingPathComponent("Package.resolved").path))
        #expect(!FileManager.default.fileExists(atPath: copies.appendingPathComponent("Nested").path))
        let origin = try String(contentsOf: copies.appendingPathComponent(LanefileSnapshot.originFile), encoding: .utf8)
        #expect(origin == project.appendingPathComponent("lanes").path + "\n")

        // A part removed from the project is gone from the next copy too.
        try FileManager.default.removeItem(at: project.appendingPathComponent("lanes/Helpers.swift"))
        let running = try snapshot.promoteCandidate()
        _ = try snapshot.prepareCandidate()
        #expect(!FileManager.default.fileExists(atPath: copies.appendingPathComponent("Helpers.swift").path))
        // The running copy is promoted from the candidate, origin included.
        let runningParts = URL(fileURLWithPath: running).deletingLastPathComponent().appendingPathComponent("lanes")
        #expect(FileManager.default.fileExists(atPath: runningParts.appendingPathComponent(LanefileSnapshot.originFile).path))
    }
}
