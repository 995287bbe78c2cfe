import Foundation
import LanesTestSupport
import Testing

/// Issue 21 (high): `lanes daemon` refuses a state folder or Lanefile others could have planted or
/// changed, before it takes a lock or runs anything.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct DaemonStateFolderTests {
    @Test func aStateFolderOthersMayWriteIsRefused() async throws {
        let project = try LanesCommandLine.project("daemon")
        let state = project.appendingPathComponent("state").path
        try FileManager.default.createDirectory(atPath: state, withIntermediateDirectories: false)
        chmod(state, 0o777)
        let result = try await LanesCommandLine().run(["daemon", "--state-dir", state], in: project)
        #expect(result.status == 78, "\(result.output)")
        #expect(result.standardError.contains("\(state) is writable by others"), "\(result.output)")
        #expect(!FileManager.default.fileExists(atPath: state + "/daemon.lock"))
    }

    @Test func aLanefileOthersMayWriteIsNotRun() async throws {
        let project = try LanesCommandLine.project("daemon")
        let state = project.appendingPathComponent("state").path
        let lanefile = project.appendingPathComponent("Lanefile.swift").path
        chmod(lanefile, 0o666)
        let result = try await LanesCommandLine().run(["daemon", "--state-dir", state], in: project)
        #expect(result.status == 78, "\(result.output)")
        #expect(result.standardError.contains("Lanefile.swift is writable by others"), "\(result.output)")
    }

    @Test func aLogsFolderOthersMayWriteIsRefused() async throws {
        let project = try LanesCommandLine.project("daemon")
        let state = project.appendingPathComponent("state").path
        try FileManager.default.createDirectory(atPath: state + "/logs", withIntermediateDirectories: true)
        chmod(state, 0o700)
        chmod(state + "/logs", 0o757)
        let result = try await LanesCommandLine().run(["daemon", "--state-dir", state], in: project)
        #expect(result.status == 78, "\(result.output)")
        #expect(result.standardError.contains("\(state)/logs is writable by others"), "\(result.output)")
    }
}
