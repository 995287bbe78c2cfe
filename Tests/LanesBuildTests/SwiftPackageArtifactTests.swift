import LanesTestSupport
import Foundation
import Testing
@testable import LanesBuild

/// A real `swift build -c release --product hello` of the HelloTool fixture, packed into an artifact
/// that `tar` and `sha256sum` check independently.
@Suite(.timeLimit(.minutes(10))) struct SwiftPackageArtifactTests {
    @Test func buildAndPackTheFixturePackage() async throws {
        let work = LanesCommandLine.temporaryDirectory("build-spm").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        let package = Fixture.path("HelloTool")
        let scratch = work + "/scratch"
        let build = SwiftPackageCommand.build(product: "hello", packagePath: package, scratchPath: scratch)
        let built = try await Program.streams(build.arguments, in: build.workingDirectory)
        #expect(built.status == 0, "swift build failed: \(built.error)")
        let binPath = SwiftPackageCommand.showBinPath(packagePath: package, scratchPath: scratch)
        let bin = try await Program.streams(binPath.arguments, in: binPath.workingDirectory).output.trimmingCharacters(in: .whitespacesAndNewlines)
        let executable = bin + "/hello"
        #expect(try await Program.streams([executable]).output == "hello from the lanes fixture\n")

        let output = work + "/artifacts"
        let packed = try ArtifactPacker.pack(
            name: "hello", version: "1.2.3", commit: "29c42f0e", entries: [
                ArtifactEntry(sourcePath: executable, archiveName: "hello-1.2.3/bin/hello"),
                ArtifactEntry(sourcePath: package + "/Package.swift", archiveName: "hello-1.2.3/Package.swift"),
            ], outputDirectory: output, buildTimeSecondsSince1970: 1_795_395_723)
        #expect(packed.artifactPath == output + "/hello-1.2.3.tar.gz")

        let listing = try await Program.streams(["tar", "-tzvf", packed.artifactPath])
        #expect(listing.status == 0, "\(listing.error)")
        let lines = listing.output.split(separator: "\n")
        #expect(lines.count == 2)
        #expect(lines[0].hasPrefix("-rwxr-xr-x root/root") && lines[0].hasSuffix("hello-1.2.3/bin/hello"))
        #expect(lines[1].hasSuffix("hello-1.2.3/Package.swift"))

        let extracted = work + "/extracted"
        try FileManager.default.createDirectory(atPath: extracted, withIntermediateDirectories: true)
        #expect(try await Program.streams(["tar", "-xzf", packed.artifactPath, "-C", extracted]).status == 0)
        #expect(FileManager.default.contentsEqual(atPath: extracted + "/hello-1.2.3/bin/hello", andPath: executable))

        let sum = try await Program.streams(["sha256sum", packed.artifactPath]).output.split(separator: " ").first.map(String.init)
        #expect(sum == packed.manifest.sha256)
        let size = try FileManager.default.attributesOfItem(atPath: packed.artifactPath)[.size] as? Int
        #expect(size == packed.manifest.size)

        let manifest = try JSONSerialization.jsonObject(with: Data(contentsOf: URL(fileURLWithPath: packed.manifestPath))) as? [String: Any]
        #expect(manifest?["name"] as? String == "hello")
        #expect(manifest?["version"] as? String == "1.2.3")
        #expect(manifest?["commit"] as? String == "29c42f0e")
        #expect(manifest?["sha256"] as? String == sum)
        #expect(manifest?["size"] as? Int == size)
        #expect(manifest?["buildTime"] as? String == "2026-11-23T01:02:03Z")
        #expect(manifest?["file"] as? String == "hello-1.2.3.tar.gz")
    }

    @Test func manifestJSONEscapes() {
        #expect(ArtifactManifest.quoted("a\"b\\c\nd\u{1}") == "\"a\\\"b\\\\c\\nd\\u0001\"")
        #expect(ArtifactManifest.isoTime(secondsSince1970: 0) == "1970-01-01T00:00:00Z")
    }

    @Test func longNamesUseTheUstarPrefix() async throws {
        let work = LanesCommandLine.temporaryDirectory("build-tar").path
        defer { try? FileManager.default.removeItem(atPath: work) }
        try "x".write(toFile: work + "/f", atomically: true, encoding: .utf8)
        let long = String(repeating: "d", count: 90) + "/" + String(repeating: "e", count: 90) + "/file.txt"
        let packed = try ArtifactPacker.pack(name: "n", version: "1", commit: "c", entries: [ArtifactEntry(sourcePath: work + "/f", archiveName: long)],
                                             outputDirectory: work, buildTimeSecondsSince1970: 0)
        #expect(try await Program.streams(["tar", "-tzf", packed.artifactPath]).output == long + "\n")
    }
}
