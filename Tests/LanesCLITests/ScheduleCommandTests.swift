import LanesTestSupport
import Foundation
import LanesTestSupport
import Testing

/// `lanes schedule`, `lanes list --json` triggers, and the pasted-character error, through the
/// compiled Lanefile.
@Suite struct ScheduleCommandTests {
    @Test func scheduleResolvesHFromTheSeedInTheLanesZone() throws {
        let project = try LanesProcess.project("triggers")
        let result = try LanesProcess().run(["schedule", "--json", "--from", "2026-11-23T00:00:00Z", "--count", "3"], in: project)
        #expect(result.status == 0, "\(result.output)")
        let lanes = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
        #expect(lanes.map { $0["lane"] as? String } == ["developerRelease", "weekly", "newYork", "sunday"])
        let release = try #require(lanes[0]["triggers"] as? [[String: Any]])
        #expect(lanes[0]["seed"] as? String == "Brewer/developerRelease")
        #expect(release[0]["kind"] as? String == "schedule")
        #expect(release[0]["spec"] as? String == "H 0 * * 0-4")
        #expect(release[0]["resolved"] as? [String] == ["30 0 * * 0-4"])
        #expect(release[0]["time_zone"] as? String == "Asia/Taipei")
        // Monday 2026-11-23 00:00 UTC is 08:00 in Taipei: next are Tuesday, Wednesday, Thursday 00:30.
        #expect(release[0]["next"] as? [String] == ["2026-11-24T00:30:00+08:00", "2026-11-25T00:30:00+08:00", "2026-11-26T00:30:00+08:00"])
        #expect(release[1]["kind"] as? String == "poll_scm")
        #expect(release[1]["resolved"] as? [String] == ["0,15,30,45 * * * *"])
        let newYork = try #require(lanes[2]["triggers"] as? [[String: Any]])
        #expect(newYork[0]["time_zone"] as? String == "America/New_York")
    }

    @Test func listCarriesTheTriggersAsValues() throws {
        let project = try LanesProcess.project("triggers")
        let result = try LanesProcess().run(["list", "--json"], in: project)
        #expect(result.status == 0, "\(result.output)")
        let listing = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [String: Any])
        #expect(listing["schema"] as? Int == 1)
        let lanes = try #require(listing["lanes"] as? [[String: Any]])
        let triggers = try #require(lanes.first?["triggers"] as? [String: Any])
        #expect(triggers["schedule"] as? [String] == ["H 0 * * 0-4"])
        #expect(triggers["poll_scm"] as? [String] == ["H/15 * * * *"])
        #expect(triggers["hash_seed"] as? String == "Brewer/developerRelease")
        #expect(triggers["time_zone"] as? String == "Asia/Taipei")
        let weekly = try #require(lanes[1]["triggers"] as? [String: Any])
        #expect(weekly["schedule"] as? [String] == ["H 3 * * 1"])  // the `schedule:` parameter keeps working
        #expect(weekly["hash_seed"] as? String == "weekly")
    }

    @Test func aPastedEnDashIsNamedWithItsASCIIFix() throws {
        let project = try LanesProcess.project("pasted")
        let result = try LanesProcess().run(["list"], in: project)
        #expect(result.status == 78)
        #expect(result.standardError.contains("lane nightly: schedule \"H 0 * * 0\u{2013}4\": line 1, column 10: '\u{2013}' (U+2013 EN DASH) is not ASCII; type '-' instead: H 0 * * 0-4"),
                "\(result.standardError)")
    }
}
