import LanesTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Golden behaviour of `lanes LANE` on fixture Lanefiles, through the built executable.
@Suite struct LaneRunTests {
    /// Runners are keyed by content, so tests of one fixture may share a cache (and race to fill it).
    static let sharedCache = LanesProcess.temporaryDirectory("shared-cache")
    let lanes = LanesProcess(cacheDirectory: sharedCache)

    @Test func successfulLanePrintsOutputBannerAndSummary() throws {
        let project = try LanesProcess.project("basic")
        let result = try lanes.run(["greet"], in: project)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput.contains("hello"))
        #expect(result.standardOutput.contains("--- 1. sh: sh -c echo hello"))
        #expect(result.standardOutput.contains("| 1 | sh   |"))
        #expect(result.standardOutput.contains("before greet"))
        #expect(result.standardOutput.contains("success greet"))
        #expect(result.standardOutput.contains("finally greet"))
        #expect(!result.standardOutput.contains("\u{1B}["), "no colours when NO_COLOR is set or not on a terminal")
    }

    @Test func failingStepFailsTheLaneAndStillRunsErrorAndFinallyHooks() throws {
        let project = try LanesProcess.project("basic")
        let result = try lanes.run(["broken"], in: project)
        #expect(result.status == 1)
        #expect(result.standardOutput.contains("first step"))
        #expect(!result.standardOutput.contains("never runs"))
        #expect(result.standardOutput.contains("error hook broken"))
        #expect(result.standardOutput.contains("finally broken"))
        #expect(!result.standardOutput.contains("success broken"))
        #expect(result.standardError.contains("failing step: 2. sh"))
        #expect(result.standardError.contains("exited with status 3"))
        #expect(result.standardError.contains("| about to fail"), "the failure shows the output tail")
    }

    @Test func laneCallsAnotherLane() throws {
        let project = try LanesProcess.project("basic")
        let result = try lanes.run(["nested"], in: project)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput.contains("hello"))
        #expect(result.standardOutput.components(separatedBy: "before ").count == 2, "hooks run once, for the outer lane")
    }

    @Test func unknownLaneIsAUsageErrorListingTheLanes() throws {
        let project = try LanesProcess.project("basic")
        let result = try lanes.run(["deploy"], in: project)
        #expect(result.status == 64)
        #expect(result.standardError.contains("no lane named 'deploy'"))
        #expect(result.standardError.contains("greet, release, broken"))
    }

    @Test func listPrintsLanesAsJSON() throws {
        let project = try LanesProcess.project("basic")
        let result = try lanes.run(["list", "--json"], in: project)
        #expect(result.status == 0, "\(result.output)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(listing["schema"] as? Int == 1)
        let lanes = try #require(listing["lanes"] as? [[String: Any]])
        #expect(lanes.map { $0["name"] as? String } == ["greet", "release", "broken", "nested", "dotenv"])
        #expect(lanes.first?["description"] as? String == "Print a greeting")
    }

    @Test func jsonEventsAreOneObjectPerLine() throws {
        let project = try LanesProcess.project("basic")
        let result = try lanes.run(["broken", "--json"], in: project)
        #expect(result.status == 1)
        let events = try result.standardOutput.split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(events.first?["event"] as? String == "lane_started")
        #expect(events.last?["event"] as? String == "lane_finished")
        #expect(events.last?["result"] as? String == "failed")
        let finished = events.filter { $0["event"] as? String == "step_finished" }
        #expect(finished.map { $0["result"] as? String } == ["ok", "failed"])
    }

    @Test func junitReportHasOneTestCasePerStep() throws {
        let project = try LanesProcess.project("basic")
        let report = project.appendingPathComponent("junit.xml")
        let result = try lanes.run(["broken", "--junit", report.path], in: project)
        #expect(result.status == 1)
        let document = try XMLDocument(contentsOf: report)
        let cases = try document.nodes(forXPath: "//testcase")
        #expect(cases.count == 2)
        #expect(try document.nodes(forXPath: "//testcase/failure").count == 1)
        #expect(try document.nodes(forXPath: "//testsuite/@failures").first?.stringValue == "1")
    }

    @Test func dotenvFilesLoadInOrderAndTheRealEnvironmentWins() throws {
        let project = try LanesProcess.project("basic")
        try "FROM_DEFAULT=default\nFROM_ENV=default\nFROM_STAGING=default\n"
            .write(to: project.appendingPathComponent(".env.default"), atomically: true, encoding: .utf8)
        try "# comment\nexport FROM_ENV=\"dotenv\"\nFROM_STAGING=dotenv\n"
            .write(to: project.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        try "FROM_STAGING='staging'\n".write(to: project.appendingPathComponent(".env.staging"), atomically: true, encoding: .utf8)
        let result = try lanes.run(["dotenv", "--env", "staging"], in: project, extraEnvironment: ["FROM_DEFAULT": "real"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput.contains("FROM_DEFAULT=real FROM_ENV=dotenv FROM_STAGING=staging"))
    }

    @Test func debugDiagnosticsNameDotenvKeysButNeverValues() throws {
        let project = try LanesProcess.project("basic")
        try "FROM_ENV=value-that-stays-private\n".write(to: project.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        let quiet = try lanes.run(["greet"], in: project)
        #expect(!quiet.standardError.contains("[lanes debug]"))
        let verbose = try lanes.run(["greet"], in: project, extraEnvironment: ["LANES_LOG_LEVEL": "debug"])
        #expect(verbose.status == 0)
        #expect(verbose.standardError.contains("[lanes debug] read \(project.path)/.env: FROM_ENV"))
        #expect(verbose.standardError.contains("[lanes debug] starting sh"))
        #expect(!verbose.output.contains("value-that-stays-private"))
    }

    @Test func malformedDotenvNamesFileAndLine() throws {
        let project = try LanesProcess.project("basic")
        try "GOOD=1\nthis is not an assignment\n".write(to: project.appendingPathComponent(".env"), atomically: true, encoding: .utf8)
        let result = try lanes.run(["greet"], in: project)
        #expect(result.status == 78)
        #expect(result.standardError.contains("/.env:2: expected KEY=value"))
    }

    @Test func runsFromASubdirectoryAndWithAnExplicitLanefile() throws {
        let project = try LanesProcess.project("basic")
        let nested = project.appendingPathComponent("Sources/App")
        try FileManager.default.createDirectory(at: nested, withIntermediateDirectories: true)
        #expect(try lanes.run(["greet"], in: nested).status == 0)
        let elsewhere = LanesProcess.temporaryDirectory("elsewhere")
        #expect(try lanes.run(["greet"], in: elsewhere).status == 78, "no Lanefile above")
        let explicit = try lanes.run(["--lanefile", project.appendingPathComponent("Lanefile.swift").path, "greet"], in: elsewhere)
        #expect(explicit.status == 0, "\(explicit.output)")
    }
}

/// Schedules are Jenkins cron specs, parsed when the lanes are listed.
@Suite struct ScheduleListingTests {
    @Test func badScheduleFailsListNamingTheLaneAndJenkinsMessage() throws {
        let project = try LanesProcess.project("schedules")
        let result = try LanesProcess().run(["list"], in: project)
        #expect(result.status == 78)
        #expect(result.standardError.contains("lane broken: schedule \"60 * * * *\""), "\(result.standardError)")
        #expect(result.standardError.contains("60 is an invalid value. Must be within 0 and 59"))
    }

    @Test func listShowsTheNextRunOfAGoodSchedule() throws {
        let project = try LanesProcess.project("schedules")
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        let text = try String(contentsOf: lanefile, encoding: .utf8).replacingOccurrences(of: "\"60 * * * *\"", with: "\"@hourly\"")
        try text.write(to: lanefile, atomically: true, encoding: .utf8)
        let result = try LanesProcess().run(["list", "--json"], in: project, extraEnvironment: ["TZ": "UTC"])
        #expect(result.status == 0, "\(result.output)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(listing["schema"] as? Int == 1)
        let lanes = try #require(listing["lanes"] as? [[String: Any]])
        let schedules = try #require(lanes.first?["schedules"] as? [[String: String]])
        #expect(schedules.first?["spec"] == "H 0 * * 0-4")
        // H is hashed from the lane name ("nightly"), so the minute is the same on every machine.
        let next = try #require(schedules.first?["next"])
        #expect(next.hasSuffix(":00Z") && next.contains("T00:"), "\(next)")
    }

    /// Issue 19: every trigger of a lane is listed, Poll SCM included, in the table and in JSON.
    @Test func listShowsPollSCMTriggersToo() throws {
        let project = try LanesProcess.project("triggers")
        let table = try LanesProcess().run(["list"], in: project)
        #expect(table.status == 0, "\(table.output)")
        let row = try #require(table.standardOutput.split(separator: "\n").first { $0.contains("developerRelease") })
        #expect(row.contains("H 0 * * 0-4") && row.contains("pollSCM H/15 * * * *"), "\(table.standardOutput)")
        let json = try LanesProcess().run(["list", "--json"], in: project)
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(json.standardOutput.utf8)) as? [String: Any])
        #expect(listing["schema"] as? Int == 1)
        let lanes = try #require(listing["lanes"] as? [[String: Any]])
        let release = try #require(lanes.first { $0["name"] as? String == "developerRelease" })
        let kinds = (release["schedules"] as? [[String: String]] ?? []).map { $0["kind"] ?? "" }
        #expect(kinds == ["schedule", "poll_scm"])
    }
}
