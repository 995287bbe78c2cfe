import Testing
@testable import LanesDriver
@testable import LanesPlatform

/// How the driver routes a command line: subcommands to the tool, lanes and lane help to the
/// Lanefile, the top-level help and `env` to the tool with the project handed over.
@Suite(.timeLimit(.minutes(10))) struct DriverRequestTests {
    @Test(arguments: [
        ([], DriverCommandLine.Request.toolWithProject(compile: true)),
        (["--help"], .toolWithProject(compile: true)),
        (["-h"], .toolWithProject(compile: true)),
        (["help"], .toolWithProject(compile: true)),
        (["help", "deploy"], .lane),
        (["help", "cron"], .tool),
        (["deploy", "--help"], .lane),
        (["env"], .toolWithProject(compile: false)),
        (["schedule", "--json"], .toolWithProject(compile: false)),
        (["actions", "--json"], .toolWithPackageSteps),
        (["packages", "update"], .toolWithProject(compile: false)),
        (["run", "sh", "command:true"], .toolWithPackageSteps),
        (["completion", "bash"], .tool),
        (["--version"], .version),
        (["--version", "--json"], .tool),
        (["---completion", "--", "positional@0"], .tool),
        (["__complete-lanes"], .completeLanes),
        (["list", "--names"], .lane),
        (["deploy", "--env=demo,extra"], .lane),
    ] as [([String], DriverCommandLine.Request)])
    func routes(arguments: [String], expected: DriverCommandLine.Request) {
        #expect(DriverCommandLine.request(for: arguments) == expected)
    }

    @Test func lanefileOptionTakesBothSpellingsAnywhere() throws {
        let spaced = try LaneDriver.separateLanefileOption(["deploy", "--lanefile", "ci/Lanefile.swift", "version:1"])
        #expect(spaced.lanefile == "ci/Lanefile.swift")
        #expect(spaced.rest == ["deploy", "version:1"])
        let attached = try LaneDriver.separateLanefileOption(["--lanefile=ci/Lanefile.swift", "list"])
        #expect(attached.lanefile == "ci/Lanefile.swift")
        #expect(attached.rest == ["list"])
        #expect(throws: DriverError.self) { try LaneDriver.separateLanefileOption(["deploy", "--lanefile"]) }
    }

    @Test func handoffRoundTripsThroughTheEnvironmentAndReplacesAnEarlierOne() {
        let handoff = ProjectHandoff(lanefile: "/p/Lanefile.swift", cacheKey: "abc", runner: "/c/abc/runner")
        let environment = ProjectHandoff.environment(["PATH": "/bin"], with: handoff)
        #expect(ProjectHandoff(environment: environment) == handoff)
        #expect(environment["PATH"] == "/bin")
        let cleared = ProjectHandoff.environment(environment, with: nil)
        #expect(ProjectHandoff(environment: cleared) == nil)
        let uncompiled = ProjectHandoff(lanefile: "/p/Lanefile.swift", cacheKey: "abc", runner: nil)
        #expect(ProjectHandoff(environment: ProjectHandoff.environment(environment, with: uncompiled)) == uncompiled)
    }
}
