import Foundation
import Testing
@testable import LanesRuntime

/// What a compiled Lanefile makes of its command line: lanes, `list`, `help`, both spellings of
/// `--env` and several environments, and the hints it gives for a mistyped lane.
@Suite(.timeLimit(.minutes(3))) struct RunnerCommandLineTests {
    func parse(_ words: [String]) throws -> RunnerArguments {
        try RunnerArguments(words, defaultProjectDirectory: "/project")
    }

    @Test func envTakesAnAttachedValueAndSeveralNames() throws {
        #expect(try parse(["deploy", "--env=demo"]).environmentNames == ["demo"])
        #expect(try parse(["deploy", "--env", "demo,extra"]).environmentNames == ["demo", "extra"])
        #expect(try parse(["deploy", "--env", "a", "--env=b,c"]).environmentNames == ["a", "b", "c"])
        #expect(try parse(["deploy", "--junit=build/report.xml"]).junitPath == "build/report.xml")
        #expect(throws: LanesError.self) { try parse(["deploy", "--env", "a,,b"]) }
        #expect(throws: LanesError.self) { try parse(["deploy", "--env=../secrets"]) }
        #expect(throws: LanesError.self) { try parse(["deploy", "--json=yes"]) }
    }

    @Test func helpListAndLanes() throws {
        #expect(try parse(["help", "deploy"]).command == .help(lane: "deploy"))
        #expect(try parse(["deploy", "--help"]).command == .help(lane: "deploy"))
        #expect(try parse(["deploy", "version:1.2", "-h"]).command == .help(lane: "deploy"))
        #expect(try parse(["list"]).command == .list(.table))
        #expect(try parse(["list", "--json"]).command == .list(.json))
        #expect(try parse(["list", "--names"]).command == .list(.names))
        #expect(try parse(["deploy", "version:1.2"]).command == .lane(name: "deploy", options: ["version": "1.2"]))
        #expect(throws: LanesError.self) { try parse(["help"]) }
    }

    @Test func severalEnvironmentsLoadInOrderAndTheRealEnvironmentWins() throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-dotenv-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        try "A=default\nB=default\nC=default\nD=default\n".write(to: directory.appendingPathComponent(".env.default"), atomically: true, encoding: .utf8)
        try "B=demo\nC=demo\n".write(to: directory.appendingPathComponent(".env.demo"), atomically: true, encoding: .utf8)
        try "C=extra\n".write(to: directory.appendingPathComponent(".env.extra"), atomically: true, encoding: .utf8)
        let variables = try DotEnv(directory: directory.path).load(environmentNames: ["demo", "extra"], over: ["D": "process"])
        #expect(variables["A"] == "default")
        #expect(variables["B"] == "demo")
        #expect(variables["C"] == "extra")
        #expect(variables["D"] == "process")
        #expect(throws: LanesError.self) { try DotEnv(directory: directory.path).load(environmentNames: ["demo", "missing"], over: [:]) }
    }

    @Test func suggestsTheClosestLanes() {
        let names = NameSuggestions(known: ["developerRelease", "appStoreRelease", "nightly", "beta", "tests"])
        #expect(names.closest(to: "developerReleas") == ["developerRelease"])
        #expect(names.closest(to: "DeveloperRelease") == ["developerRelease"])
        #expect(names.closest(to: "nigthly") == ["nightly"])
        #expect(names.closest(to: "test") == ["tests"])
        #expect(names.closest(to: "bet") == ["beta"])
        #expect(names.closest(to: "deploy").isEmpty)
        #expect(NameSuggestions.editDistance("kitten", "sitting", limit: 10) == 3)
        #expect(NameSuggestions.editDistance("ab", "ba", limit: 10) == 1)
    }

    @Test func aHintForTwoThousandLanesStaysShort() {
        let names = NameSuggestions(known: (0..<2000).map { "lane\($0)" })
        let hint = names.hint(for: "lane19999", noun: "lane", listCommand: "lanes list")
        #expect(hint.hasPrefix("did you mean lane1999"))
        #expect(hint.contains("and 1992 more (lanes list shows them all)"))
        #expect(hint.utf8.count < 200)
    }

    @Test func laneHelpShowsOptionsEnvironmentSecretsAndSchedule() throws {
        let version = LaneOption<String>("version", "The version to ship")
        let dryRun = LaneOption<Bool>("dry_run", "Only say what would ship", default: false)
        let lanefile = Lanefile {
            Lane("deploy", "Ship a version", options: [version, dryRun], environment: ["KEYCHAIN_NAME"],
                 secrets: ["CERTIFICATE_PASSWORD"], schedule: ["H 0 * * 0-4"]) { _ in }
        }
        let listing = try LaneListing(lanefile: lanefile)
        let help = LaneHelp(lane: lanefile.lanes[0], schedules: listing.schedules["deploy"] ?? []).rendered
        let lines = help.split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        #expect(lines[0] == "lanes deploy: Ship a version")
        #expect(lines[2] == "usage: lanes deploy version:<String> [dry_run:<Bool>] [--env NAME[,NAME...]] [--json] [--junit PATH]")
        #expect(lines.contains("  version:String  The version to ship (required)"))
        #expect(lines.contains("  dry_run:Bool    Only say what would ship (default: false)"))
        #expect(lines.contains("  KEYCHAIN_NAME"))
        #expect(lines.contains("  CERTIFICATE_PASSWORD"))
        // Jenkins' minute for the seed "deploy" (the lane's name), as `lanes cron explain` gives it.
        let row = try #require(listing.schedules["deploy"]?.first)
        #expect(row.seed == "deploy")
        #expect(row.hours == ["0"])
        #expect(lines.contains { $0.hasPrefix("  H 0 * * 0-4 (seed deploy: minute \(row.minutes[0]), hour 0; next ") })
    }

    /// Issue 34: `lanes ios beta`, fastlane's habit, names the lane lanes runs; `hotfix-start` finds `hotfix_start`.
    @Test func fastlanePlatformWordsSuggestTheLaneAndDashesFindUnderscores() throws {
        #expect(throws: LanesError.self) { try parse(["ios", "beta"]) }
        let suggestion = try #require(FastlanePlatformWords.suggestion(for: ["ios", "beta", "version:1.2", "api_token:s3cr3t-t0ken"],
                                                                       lanes: ["beta", "release"]))
        #expect(suggestion.lanesKind == .usage)
        // The suggestion names the options, never their values: a value may be a secret.
        #expect("\(suggestion)".contains("here it is `lanes beta version:… api_token:…`"), "\(suggestion)")
        #expect(!"\(suggestion)".contains("1.2") && !"\(suggestion)".contains("s3cr3t"), "\(suggestion)")
        #expect(FastlanePlatformWords.suggestion(for: ["android", "beta"], lanes: ["android_beta", "beta"]).map { "\($0)" }?
            .contains("`lanes android_beta`") == true)
        // A lane really named like a platform, or a second word that is no lane, gets the usual error.
        #expect(FastlanePlatformWords.suggestion(for: ["ios", "beta"], lanes: ["ios", "beta"]) == nil)
        #expect(FastlanePlatformWords.suggestion(for: ["ios", "nothing"], lanes: ["beta"]) == nil)

        let lanefile = Lanefile {
            Lane("hotfix_start", "Start a hotfix") { _ in }
        }
        #expect(lanefile.lane(named: "hotfix-start")?.name == "hotfix_start")
        #expect(lanefile.lane(named: "hotfix start") == nil)
    }
}
