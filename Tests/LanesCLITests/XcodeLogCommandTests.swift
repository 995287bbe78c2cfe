import LanesTestSupport
import Foundation
import Testing

/// `lanes xcode log` on the recorded logs of LanesBuildTests, from a file and from a pipe.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct XcodeLogCommandTests {
    static let logs = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesBuildTests/Fixtures/logs")

    @Test func errorsFirstThenTheSummaryAndExitOne() async throws {
        let result = try await LanesCommandLine().run(["xcode", "log", Self.logs.appendingPathComponent("script-phase.log").path],
                                            in: LanesCommandLine.temporaryDirectory("xcode-log"))
        #expect(result.status == 1)
        #expect(result.standardOutput == """
            error: Command PhaseScriptExecution failed with a nonzero exit code [Brewer]
            phases: none recognised
            result: BUILD FAILED
            1 error, 1 warning

            """)
    }

    @Test func pipedCleanLogExitsZero() async throws {
        let lanes = try LanesCommandLine.executable
        let log = Self.logs.appendingPathComponent("archive-succeeded.log").path
        let result = try await LanesCommandLine().run(["-c", "cat '\(log)' | '\(lanes)' xcode log"], in: LanesCommandLine.temporaryDirectory("xcode-log"),
                                            executable: "/bin/sh")
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput == """
            phases: archive, resolve, compile, link, sign
            result: ARCHIVE SUCCEEDED
            0 errors, 5 warnings

            """)
    }

    @Test func jsonListsStructuredIssues() async throws {
        let result = try await LanesCommandLine().run(["xcode", "log", "--json", Self.logs.appendingPathComponent("compile-errors.log").path],
                                            in: LanesCommandLine.temporaryDirectory("xcode-log"))
        #expect(result.status == 1)
        let report = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(report["errors"] as? Int == 8)
        #expect(report["warnings"] as? Int == 1)
        let issues = try #require(report["issues"] as? [[String: Any]])
        let first = try #require(issues.first)
        #expect(first["kind"] as? String == "compiler")
        #expect(first["file"] as? String == "/Users/ci/Brewer/Brewer/BrewView.swift")
        #expect(first["line"] as? Int == 17)
        #expect(first["column"] as? Int == 25)
        #expect(first["target"] as? String == "Brewer")
        #expect(first["message"] as? String == "cannot find 'brewRatio' in scope")
        #expect(issues.last?["severity"] as? String == "warning")
    }

    @Test func missingFileIsAConfigurationError() async throws {
        let result = try await LanesCommandLine().run(["xcode", "log", "/nonexistent/build.log"], in: LanesCommandLine.temporaryDirectory("xcode-log"))
        #expect(result.status == 78)
        #expect(result.standardError.contains("cannot read /nonexistent/build.log"))
    }
}
