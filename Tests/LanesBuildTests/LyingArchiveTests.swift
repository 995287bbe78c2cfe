import Foundation
import LanesTestSupport
import Testing
@testable import LanesBuild

/// Issue 21: an .ipa's zip directory cannot make lanes allocate what it claims.
@Suite(.timeLimit(.minutes(10))) struct LyingArchiveTests {
    /// A real .ipa-shaped zip (python's zipfile), its directory then patched to claim `claimed` bytes.
    static func lyingIPA(claimed: UInt32) async throws -> [UInt8] {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-lying-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let path = folder.appendingPathComponent("App.ipa").path
        let script = """
            import zipfile, sys
            with zipfile.ZipFile(sys.argv[1], 'w', zipfile.ZIP_DEFLATED) as z:
                z.writestr('Payload/App.app/Info.plist', '<plist>' + 'a' * 2000 + '</plist>')
            """
        let python = try await Program.run(["python3", "-c", script, path])
        try #require(python.status == 0, "\(python.output)")
        var bytes = [UInt8](try Data(contentsOf: URL(fileURLWithPath: path)))
        let directory = try #require((0..<(bytes.count - 4)).first { bytes[$0..<$0 + 4].elementsEqual([0x50, 0x4B, 0x01, 0x02]) })
        for index in 0..<4 { bytes[directory + 24 + index] = UInt8(truncatingIfNeeded: claimed >> (8 * UInt32(index))) }
        return bytes
    }

    @Test func aDirectoryClaimingGigabytesIsRefusedWithoutAllocatingThem() async throws {
        let bytes = try await Self.lyingIPA(claimed: 0xFFFF_FFF0)
        #expect(bytes.count < 4096)
        let error = #expect(throws: BuildError.self) { _ = try IPAInspector.inspect(bytes: bytes, path: "App.ipa") }
        #expect(error?.description.contains("more than deflate can give") == true, "\(String(describing: error))")
    }

    @Test func aSizeSmallerThanTheDataIsRefused() async throws {
        let bytes = try await Self.lyingIPA(claimed: 100)
        let error = #expect(throws: BuildError.self) { _ = try IPAInspector.inspect(bytes: bytes, path: "App.ipa") }
        #expect(error?.description.contains("Info.plist") == true, "\(String(describing: error))")
    }

    @Test func inflateGrowsItsOutputAsDataComes() throws {
        let data = [UInt8](repeating: 7, count: 3_000_000)
        let compressed = try Zlib.deflate(data, format: .raw)
        #expect(try Zlib.inflate(compressed[...], format: .raw, expectedSize: data.count) == data)
    }
}

/// Issue 21: a built product that is a link to a file outside the build folder is never packed.
@Suite(.timeLimit(.minutes(10))) struct SymlinkedProductTests {
    @Test func aProductLinkedOutsideTheBuildFolderIsRefused() throws {
        let work = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-link-\(UUID().uuidString)").path
        try FileManager.default.createDirectory(atPath: work + "/build/release", withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(atPath: work) }
        try "private key\n".write(toFile: work + "/secret.pem", atomically: true, encoding: .utf8)
        try FileManager.default.createSymbolicLink(atPath: work + "/build/release/tool", withDestinationPath: work + "/secret.pem")
        let error = #expect(throws: BuildError.self) {
            _ = try ArtifactPacker.pack(name: "tool", version: "1", commit: "c",
                                        entries: [ArtifactEntry(sourcePath: work + "/build/release/tool", archiveName: "tool/bin/tool",
                                                                containingFolder: work + "/build/release")],
                                        outputDirectory: work + "/out", buildTimeSecondsSince1970: 0)
        }
        #expect(error?.description.contains("outside") == true, "\(String(describing: error))")
        #expect(!FileManager.default.fileExists(atPath: work + "/out/tool-1.tar.gz"))

        // A real product inside the folder is packed.
        try FileManager.default.removeItem(atPath: work + "/build/release/tool")
        try "binary\n".write(toFile: work + "/build/release/tool", atomically: true, encoding: .utf8)
        let packed = try ArtifactPacker.pack(name: "tool", version: "1", commit: "c",
                                             entries: [ArtifactEntry(sourcePath: work + "/build/release/tool", archiveName: "tool/bin/tool",
                                                                     containingFolder: work + "/build/release")],
                                             outputDirectory: work + "/out", buildTimeSecondsSince1970: 0)
        #expect(FileManager.default.fileExists(atPath: packed.artifactPath))
    }
}
