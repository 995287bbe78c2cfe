import LanesPlatform
import LanesTestSupport
import Foundation
import Testing
@testable import LanesDriver

/// Findings 11, 12 and 17 of issue 10: what the driver agrees to run, and what it cleans up.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct DriverTrustTests {
    static let isRoot = getuid() == 0

    @Test func withoutHomeTheCacheIsInTheAccountsHomeNeverInTmp() throws {
        let directory = try LaneDriver.cacheDirectory(environment: ["PATH": "/usr/bin"])
        #expect(!directory.hasPrefix("/tmp"))
        #expect(directory.hasSuffix("/.cache/lanes"))
    }

    @Test func theCacheFolderIsCreatedPrivate() async throws {
        let project = try LanesCommandLine.project("basic")
        let cache = LanesCommandLine.temporaryDirectory("private").appendingPathComponent("nested/cache")
        let result = try await LanesCommandLine(cacheDirectory: cache).run(["greet"], in: project)
        #expect(result.status == 0, "\(result.output)")
        #expect(try mode(cache.path) == 0o700)
        #expect(try mode(cache.appendingPathComponent("runners").path) == 0o700)
    }

    @Test func aRunnerOthersCanWriteIsCompiledAgainNotRun() async throws {
        let project = try LanesCommandLine.project("basic")
        let lanes = LanesCommandLine()
        #expect(try await lanes.run(["greet"], in: project).status == 0)
        let runner = try runnerPath(in: lanes.cacheDirectory)
        // Plant a runner that would print something else, writable by everyone.
        try "#!/bin/sh\necho planted\n".write(toFile: runner, atomically: false, encoding: .utf8)
        chmod(runner, 0o777)
        let result = try await lanes.run(["greet"], in: project)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.standardOutput.contains("planted"))
        #expect(result.standardError.contains("is not private to you; compiling again"))
    }

    @Test(.enabled(if: isRoot, "needs root to give the runner to another user"))
    func aRunnerOwnedByAnotherUserIsCompiledAgainNotRun() async throws {
        let project = try LanesCommandLine.project("basic")
        let lanes = LanesCommandLine()
        #expect(try await lanes.run(["greet"], in: project).status == 0)
        let runner = try runnerPath(in: lanes.cacheDirectory)
        try AtomicFile.write("#!/bin/sh\necho planted\n", to: runner, permissions: 0o755)
        #expect(chown(runner, 65534, 65534) == 0)
        let result = try await lanes.run(["greet"], in: project)
        #expect(result.status == 0, "\(result.output)")
        #expect(!result.standardOutput.contains("planted"))
    }

    @Test(.enabled(if: isRoot, "needs root to create a Lanefile owned by another user"))
    func aLanefileAboveOwnedByAnotherUserIsRefusedUnlessListedSafe() async throws {
        let parent = try LanesCommandLine.project("basic")
        let lanefile = parent.appendingPathComponent("Lanefile.swift")
        #expect(chown(lanefile.path, 65534, 65534) == 0)
        let below = parent.appendingPathComponent("app/sources")
        try FileManager.default.createDirectory(at: below, withIntermediateDirectories: true)
        let lanes = LanesCommandLine()
        let refused = try await lanes.run(["greet"], in: below)
        #expect(refused.status == 78)
        #expect(refused.standardError.contains("refusing to run \(lanefile.path)"), "\(refused.output)")
        #expect(refused.standardError.contains("LANES_SAFE_DIRECTORIES=\(parent.path)"))
        #expect(!refused.standardError.contains("Compiling"))

        let allowed = try await lanes.run(["greet"], in: below, extraEnvironment: ["LANES_SAFE_DIRECTORIES": "/elsewhere:\(parent.path)"])
        #expect(allowed.status == 0, "\(allowed.output)")
        // In its own folder, the Lanefile is the one the user chose to run.
        #expect(try await lanes.run(["greet"], in: parent).status == 0)
    }

    @Test func anAbandonedCompileFolderIsRemovedByTheNextCompile() async throws {
        let project = try LanesCommandLine.project("basic")
        let lanes = LanesCommandLine()
        #expect(try await lanes.run(["greet"], in: project).status == 0)
        let runners = lanes.cacheDirectory.appendingPathComponent("runners")
        let abandoned = runners.appendingPathComponent(".building-\(try await deadProcessID())-12345")
        try FileManager.default.createDirectory(at: abandoned, withIntermediateDirectories: true)
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        try (try String(contentsOf: lanefile, encoding: .utf8) + "\n// edited\n").write(to: lanefile, atomically: true, encoding: .utf8)
        #expect(try await lanes.run(["greet"], in: project).status == 0)
        #expect(!FileManager.default.fileExists(atPath: abandoned.path))
    }

    @Test func aByteOrderMarkInTheLanefileIsNamed() async throws {
        let project = try LanesCommandLine.project("basic")
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        try (Data([0xEF, 0xBB, 0xBF]) + Data(contentsOf: lanefile)).write(to: lanefile)
        let result = try await LanesCommandLine().run(["greet"], in: project)
        #expect(result.status == 65)
        #expect(result.standardError.contains("starts with a UTF-8 byte-order mark"), "\(result.output)")
    }

    private func deadProcessID() async throws -> Int32 {
        let process = try Program.start(["/bin/true"])
        _ = await process.finish()
        return process.pid
    }

    private func runnerPath(in cache: URL) throws -> String {
        let runners = cache.appendingPathComponent("runners")
        let hashes = try FileManager.default.contentsOfDirectory(atPath: runners.path).filter { !$0.hasPrefix(".") }
        let hash = try #require(hashes.first)
        return runners.appendingPathComponent(hash).appendingPathComponent("runner").path
    }

    private func mode(_ path: String) throws -> Int {
        let attributes = try FileManager.default.attributesOfItem(atPath: path)
        return (attributes[.posixPermissions] as? Int ?? 0) & 0o777
    }
}
