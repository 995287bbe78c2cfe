import Foundation
import LanesTestSupport
import Testing

/// `make dist` packs the installed layout into one tarball that works from any folder it is
/// unpacked in, with no compiler recorded (swiftc comes from PATH).
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct DistTests {
    @Test func theArchiveWorksFromAnyFolder() async throws {
        let output = LanesCommandLine.temporaryDirectory("dist")
        defer { try? FileManager.default.removeItem(at: output) }
        let make = try await Program.streams(["make", "--no-print-directory", "-C", LanesCommandLine.repositoryRoot.path, "dist-files",
                                   "BIN=\(LanesCommandLine.repositoryRoot.path)/.build/debug", "DIST_FOLDER=\(output.path)"])
        try #require(make.status == 0, "\(make.output)\(make.error)")
        let archive = try #require(try FileManager.default.contentsOfDirectory(atPath: output.path).first { $0.hasSuffix(".tar.gz") })
        let project = LanesCommandLine.temporaryDirectory("dist-project")
        defer { try? FileManager.default.removeItem(at: project) }
        try "import Lanes\n\nlet lanes = Lanefile {\n    Lane(\"hello\", \"Says hello\") { try echo(\"hello from the archive\") }\n}\n"
            .write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        var lanes = LanesCommandLine()
        lanes.environment["LANES_SWIFTC"] = nil
        for place in ["first", "second"] {
            // Unpacked in one folder, then in another: each finds its own modules and library.
            let folder = LanesCommandLine.temporaryDirectory("dist-\(place)")
            defer { try? FileManager.default.removeItem(at: folder) }
            let unpacked = try await Program.streams(["tar", "-xzf", output.appendingPathComponent(archive).path, "-C", folder.path, "--strip-components", "1"])
            try #require(unpacked.status == 0, "\(unpacked.error)")
            #expect(!FileManager.default.fileExists(atPath: folder.appendingPathComponent("lib/lanes/swiftc").path), "no compiler recorded")
            let lanesPath = folder.appendingPathComponent("bin/lanes").path
            let version = try await lanes.run(["--version"], in: project, executable: lanesPath)
            #expect(version.standardOutput.contains("installed: \(folder.path)/lib/lanes"), "\(version.output)")
            let ran = try await lanes.run(["hello"], in: project, executable: lanesPath)
            #expect(ran.status == 0, "\(ran.output)")
            #expect(ran.standardOutput.contains("hello from the archive"))
        }
    }
}
