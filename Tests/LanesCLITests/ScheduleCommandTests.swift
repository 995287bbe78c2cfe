import Foundation
import LanesPlatform
import LanesTestSupport
import Testing

/// `lanes schedule`, `lanes list --json` triggers, and the pasted-character error, through the
/// compiled Lanefile.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ScheduleCommandTests {
    @Test func scheduleResolvesHFromTheSeedInTheLanesZone() async throws {
        let project = try LanesCommandLine.project("triggers")
        let result = try await LanesCommandLine().run(["schedule", "--json", "--from", "2026-11-23T00:00:00Z", "--count", "3"], in: project)
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

    @Test func listCarriesTheTriggersAsValues() async throws {
        let project = try LanesCommandLine.project("triggers")
        let result = try await LanesCommandLine().run(["list", "--json"], in: project)
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

    /// `lanes schedule`, `lanes env` and `lanes --help` read the lanes the runner listed when it was
    /// compiled (`RunnerListing`), kept beside it, instead of starting it: with every cached runner
    /// replaced by one that only fails, they still answer, and `lanes list` (which runs it) does not.
    @Test func scheduleEnvAndHelpReadTheListingKeptWithTheRunner() async throws {
        let lanes = LanesCommandLine()
        let project = try LanesCommandLine.project("triggers")
        #expect(try await lanes.run(["list"], in: project).status == 0)
        let runners = lanes.cacheDirectory.appendingPathComponent("runners")
        let entries = try FileManager.default.contentsOfDirectory(atPath: runners.path).filter { !$0.hasPrefix(".") }
        #expect(entries.count == 1)
        for entry in entries {
            try AtomicFile.write("#!/bin/sh\necho started >&2\nexit 70\n", to: runners.path + "/\(entry)/runner", permissions: 0o700)
        }
        let schedule = try await lanes.run(["schedule", "--json", "--from", "2026-11-23T00:00:00Z", "--count", "1"], in: project)
        #expect(schedule.status == 0, "\(schedule.output)")
        let scheduled = try #require(try JSONSerialization.jsonObject(with: Data(schedule.standardOutput.utf8)) as? [[String: Any]])
        #expect(scheduled.map { $0["lane"] as? String } == ["developerRelease", "weekly", "newYork", "sunday"])
        let env = try await lanes.run(["env"], in: project)
        #expect(env.status == 0, "\(env.output)")
        #expect(env.standardOutput.contains("lanes:     5 (developerRelease, weekly, newYork, sunday, unscheduled)"), "\(env.standardOutput)")
        #expect(env.standardOutput.contains("  APP_STORE_KEY (secret): not set"), "\(env.standardOutput)")
        let help = try await lanes.run(["--help"], in: project)
        #expect(help.status == 0, "\(help.output)")
        #expect(help.standardOutput.contains("Nightly staging build"), "\(help.standardOutput)")
        #expect(!(schedule.output + env.output + help.output).contains("started"))
        #expect(try await lanes.run(["list"], in: project).status == 70)
    }

    /// The kept listing goes with its runner's cache key: after an edit of the Lanefile, `lanes schedule`
    /// shows the new triggers, not the listing of the runner compiled before.
    @Test func anEditedLanefileIsNotAnsweredFromTheOldListing() async throws {
        let lanes = LanesCommandLine()
        let project = try LanesCommandLine.project("triggers")
        func specs() async throws -> [String] {
            let result = try await lanes.run(["schedule", "--json", "--from", "2026-11-23T00:00:00Z", "--count", "1"], in: project)
            #expect(result.status == 0, "\(result.output)")
            let lanes = try #require(try JSONSerialization.jsonObject(with: Data(result.standardOutput.utf8)) as? [[String: Any]])
            return lanes.flatMap { ($0["triggers"] as? [[String: Any]] ?? []).compactMap { $0["spec"] as? String } }
        }
        #expect(try await specs().contains("H 3 * * 1"))
        #expect(try await specs().contains("H 3 * * 1"))  // now from the kept listing
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        let edited = try String(contentsOf: lanefile, encoding: .utf8).replacingOccurrences(of: "H 3 * * 1", with: "H 5 * * 2")
        try edited.write(to: lanefile, atomically: true, encoding: .utf8)
        let after = try await specs()
        #expect(after.contains("H 5 * * 2") && !after.contains("H 3 * * 1"), "\(after)")
    }

    /// Nothing of the environment the Lanefile was compiled in is kept with the runner: its listing
    /// is made in the loader's variables only, so a Lanefile that writes a variable's value into a
    /// lane's description (a secret, here) leaves no trace of it in the cache.
    @Test func theKeptListingHoldsNoValueOfTheEnvironment() async throws {
        let lanes = LanesCommandLine()
        let project = LanesCommandLine.temporaryDirectory("kept-listing")
        try """
            import Foundation
            import Lanes

            let lanes = Lanefile {
                Lane("deploy", "Deploys with \\(ProcessInfo.processInfo.environment["DEPLOY_PASSWORD"] ?? "no password")", secrets: ["DEPLOY_PASSWORD"]) {}
            }

            """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let secret = "kept-\(UUID().uuidString)"
        let listed = try await lanes.run(["list"], in: project, extraEnvironment: ["DEPLOY_PASSWORD": secret])
        #expect(listed.status == 0, "\(listed.output)")
        let runners = lanes.cacheDirectory.appendingPathComponent("runners")
        let entry = try #require(try FileManager.default.contentsOfDirectory(atPath: runners.path).first { !$0.hasPrefix(".") })
        let kept = try String(contentsOf: runners.appendingPathComponent("\(entry)/\(RunnerListing.fileName)"), encoding: .utf8)
        #expect(kept.contains("Deploys with no password"), "\(kept)")
        let files = FileManager.default.enumerator(atPath: lanes.cacheDirectory.path)?.allObjects as? [String] ?? []
        for file in files {
            let data = (try? Data(contentsOf: lanes.cacheDirectory.appendingPathComponent(file))) ?? Data()
            #expect(data.range(of: Data(secret.utf8)) == nil, "\(file) holds the secret")
        }
        let help = try await lanes.run(["--help"], in: project, extraEnvironment: ["DEPLOY_PASSWORD": secret])
        #expect(!help.output.contains(secret))
    }

    @Test func aPastedEnDashIsNamedWithItsASCIIFix() async throws {
        let project = try LanesCommandLine.project("pasted")
        let result = try await LanesCommandLine().run(["list"], in: project)
        #expect(result.status == 78)
        #expect(result.standardError.contains("lane nightly: schedule \"H 0 * * 0\u{2013}4\": line 1, column 10: '\u{2013}' (U+2013 EN DASH) is not ASCII; type '-' instead: H 0 * * 0-4"),
                "\(result.standardError)")
    }
}
