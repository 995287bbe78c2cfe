import Foundation
@testable import LanesCommands
import LanesTestSupport
import Testing

/// Issue 32: lanes' modules are built for macOS 15 (Package.swift's `.macOS(.v15)`), and a package
/// target that imports `Lanes` with SwiftPM's default deployment target does not compile against
/// them on a Mac. Every manifest lanes writes declares the platform, as SwiftPM reads it.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ManifestPlatformTests {
    /// The platforms SwiftPM reads from the manifest `text` (`dump-package`), as "name version".
    static func platforms(ofManifest text: String) async throws -> [String] {
        let folder = LanesCommandLine.temporaryDirectory("manifest-platforms")
        defer { try? FileManager.default.removeItem(at: folder) }
        try text.write(to: folder.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let result = try await Program.streams(["swift", "package", "--package-path", folder.path, "--scratch-path", folder.appendingPathComponent(".scratch").path,
                                     "dump-package"], in: folder.path)
        try #require(result.status == 0, "dump-package: \(result.error)")
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        return (manifest["platforms"] as? [[String: Any]] ?? []).map { "\($0["platformName"] ?? "") \($0["version"] ?? "")" }
    }

    @Test func aNewStepPackageDeclaresMacOS15() async throws {
        let files = StepPackageTemplate(name: "ReleaseSteps", modulesDirectory: "/opt/lanes/Modules", libraryDirectory: "/opt/lanes").files
        let manifest = try #require(files.first { $0.0 == "Package.swift" }?.1)
        #expect(try await Self.platforms(ofManifest: manifest) == ["macos 15.0"])
        // The Lanefile manifest its test writes, and the one its README shows, say so too.
        for (path, text) in files where path == "README.md" || path.hasPrefix("Tests/") {
            #expect(text.contains("Package(name: \"Lanefile\", platforms: [.macOS(.v15)]"), "\(path)")
        }
    }

    @Test func theWrapperPackageDeclaresMacOS15() async throws {
        let text = PackageBuilder.wrapperManifest(dependencies: [#".package(path: "../SentrySteps")"#],
                                                  products: [.init(name: "SentrySteps", package: "SentrySteps")], origin: "/p/lanes/Package.swift")
        #expect(try await Self.platforms(ofManifest: text) == ["macos 15.0"])
    }
}
