import LanesTestSupport
import Foundation
import Testing

/// Compiling the Lanefile: errors at the user's line, one compile per content, recompile on edit.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct CompileCacheTests {
    @Test func typeErrorIsReportedAtTheLanefileLine() async throws {
        let project = try LanesCommandLine.project("typeerror")
        let result = try await LanesCommandLine().run(["greet"], in: project)
        #expect(result.status == 65)
        #expect(result.standardError.contains("Lanefile.swift:5:"), "\(result.standardError)")
        #expect(result.standardError.contains("cannot convert value of type 'String' to specified type 'Int'"))
    }

    @Test func missingLanesDeclarationGetsAHint() async throws {
        let project = LanesCommandLine.temporaryDirectory("nolanes")
        try "import Lanes\nlet lanez = Lanefile {}\n".write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let result = try await LanesCommandLine().run(["list"], in: project)
        #expect(result.status == 65)
        #expect(result.standardError.contains("let lanes = Lanefile"))
    }

    @Test func secondRunReusesTheRunnerAndAnEditRecompiles() async throws {
        let project = try LanesCommandLine.project("basic")
        let lanes = LanesCommandLine()
        let first = try await lanes.run(["greet"], in: project)
        #expect(first.status == 0, "\(first.output)")
        #expect(first.standardError.contains("Compiling"))
        let second = try await lanes.run(["greet"], in: project)
        #expect(second.status == 0)
        #expect(!second.standardError.contains("Compiling"))
        #expect(try runners(in: lanes.cacheDirectory).count == 1)

        let lanefile = project.appendingPathComponent("Lanefile.swift")
        let edited = try String(contentsOf: lanefile, encoding: .utf8).replacingOccurrences(of: "echo hello", with: "echo edited")
        try edited.write(to: lanefile, atomically: true, encoding: .utf8)
        let third = try await lanes.run(["greet"], in: project)
        #expect(third.standardError.contains("Compiling"))
        #expect(third.standardOutput.contains("edited"))
        #expect(try runners(in: lanes.cacheDirectory).count == 2)

        // The key is the content, not the file's time or place: a fresh clone elsewhere reuses it.
        let clone = try LanesCommandLine.project("basic")
        try edited.write(to: clone.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let fourth = try await lanes.run(["greet"], in: clone)
        #expect(!fourth.standardError.contains("Compiling"))
    }

    /// The daemon lists a copy of the Lanefile whose first line is `#sourceLocation` naming the
    /// user's file (`LanefileSnapshot`): it finds the runner `lanes list` compiled, not a compile of its own.
    @Test func theDaemonsCopyReusesTheRunnerListCompiled() async throws {
        let project = try LanesCommandLine.project("basic")
        let lanes = LanesCommandLine()
        let listed = try await lanes.run(["list"], in: project)
        #expect(listed.status == 0 && listed.standardError.contains("Compiling"), "\(listed.output)")
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        let copy = LanesCommandLine.temporaryDirectory("daemon-copy").appendingPathComponent("Lanefile.swift")
        try ("#sourceLocation(file: \"\(lanefile.path)\", line: 1)\n" + String(contentsOf: lanefile, encoding: .utf8))
            .write(to: copy, atomically: true, encoding: .utf8)
        let copied = try await lanes.run(["--lanefile", copy.path, "list", "--json"], in: project)
        #expect(copied.status == 0, "\(copied.output)")
        #expect(!copied.standardError.contains("Compiling"), "\(copied.standardError)")
        #expect(try runners(in: lanes.cacheDirectory).count == 1)
    }

    @Test func compilingPrunesRunnersOlderThanThirtyDays() async throws {
        let lanes = LanesCommandLine()
        let runners = lanes.cacheDirectory.appendingPathComponent("runners")
        let stale = runners.appendingPathComponent("stale-runner")
        let recent = runners.appendingPathComponent("recent-runner")
        for directory in [stale, recent] {
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            try "old".write(to: directory.appendingPathComponent("runner"), atomically: true, encoding: .utf8)
        }
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-40 * 86_400)],
                                              ofItemAtPath: stale.appendingPathComponent("runner").path)
        try FileManager.default.setAttributes([.modificationDate: Date().addingTimeInterval(-10 * 86_400)],
                                              ofItemAtPath: recent.appendingPathComponent("runner").path)
        let result = try await lanes.run(["greet"], in: try LanesCommandLine.project("basic"))
        #expect(result.status == 0, "\(result.output)")
        let left = try self.runners(in: lanes.cacheDirectory)
        #expect(!left.contains("stale-runner"))
        #expect(left.contains("recent-runner"))
        #expect(left.count == 2, "the recent runner and the one just compiled")
    }

    private func runners(in cache: URL) throws -> [String] {
        try FileManager.default.contentsOfDirectory(atPath: cache.appendingPathComponent("runners").path)
            .filter { !$0.hasPrefix(".") }
    }
}

/// Secrets: checked before the first step, and never printed.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct SecretTests {
    static let cache = LanesCommandLine.temporaryDirectory("secrets-cache")
    let lanes = LanesCommandLine(cacheDirectory: cache)
    let canary = "canary-7f3a-SECRET-value"

    @Test func missingVariablesAndSecretsAreListedTogetherBeforeAnyStep() async throws {
        let project = try LanesCommandLine.project("secrets")
        let result = try await lanes.run(["release"], in: project, extraEnvironment: ["KEYCHAIN_PASSWORD": "a-real-password"])
        #expect(result.status == 78)
        #expect(result.standardError.contains("KEYCHAIN_NAME"))
        #expect(result.standardError.contains("CERTIFICATE_PASSWORD"))
        #expect(!result.standardError.contains("secret KEYCHAIN_PASSWORD"), "a set secret is not reported")
        #expect(!result.standardOutput.contains("should not run"))
        #expect(!result.standardOutput.contains("--- 1."), "no step started")
    }

    @Test func missingSecretReadInTheBodyNamesTheVariable() async throws {
        let project = try LanesCommandLine.project("basic")
        let result = try await lanes.run(["release"], in: project)
        #expect(result.status == 78)
        #expect(result.standardError.contains("secret CERTIFICATE_PASSWORD is not set"))
        #expect(!result.standardOutput.contains("--- 1."), "the failing sh never started")
    }

    @Test func canaryNeverReachesOutputJSONOrJUnit() async throws {
        let project = try LanesCommandLine.project("secrets")
        let report = project.appendingPathComponent("report.xml")
        let text = try await lanes.run(["leak", "--junit", report.path], in: project, extraEnvironment: ["CANARY": canary])
        let json = try await lanes.run(["leak", "--json"], in: project, extraEnvironment: ["CANARY": canary])
        #expect(text.status == 1)
        #expect(json.status == 1)
        for output in [text.standardOutput, text.standardError, json.standardOutput, json.standardError,
                       try String(contentsOf: report, encoding: .utf8)] {
            #expect(!output.contains(canary))
            #expect(!output.contains("SECRET-value"))
        }
        #expect(text.standardOutput.contains("child stdout ********"))
        #expect(text.standardOutput.contains("child stderr ********"))
        #expect(text.standardOutput.contains("echo says ********"))
        #expect(text.standardOutput.contains("print says ********"), "a plain print is redacted too")
        #expect(text.standardError.contains("failing with ********"))
    }

    @Test func secretAsAProcessArgumentIsRefused() async throws {
        let project = try LanesCommandLine.project("secrets")
        let result = try await lanes.run(["argv"], in: project, extraEnvironment: ["CANARY": canary])
        #expect(result.status == 78)
        #expect(result.standardError.contains("sh: refusing to start echo with a secret in its arguments"))
        #expect(!result.output.contains(canary))
    }
}

/// Typed lane options: `lanes deploy version:1.2.3 build:7`.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct LaneOptionTests {
    static let cache = LanesCommandLine.temporaryDirectory("options-cache")
    let lanes = LanesCommandLine(cacheDirectory: cache)

    @Test func typedValuesAndDefaults() async throws {
        let project = try LanesCommandLine.project("options")
        let result = try await lanes.run(["deploy", "version:1.2.3", "dry_run:true"], in: project)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput.contains("version=1.2.3 build=1 dry_run=true"))
    }

    @Test func badAndUnknownOptionsAreReportedTogether() async throws {
        let project = try LanesCommandLine.project("options")
        let result = try await lanes.run(["deploy", "version:1.0", "build:seven", "colour:red"], in: project)
        #expect(result.status == 64)
        #expect(result.standardError.contains("unknown option 'colour'"))
        #expect(result.standardError.contains("option 'build' from the command line has value 'seven', which is not a Int"))
    }

    @Test func missingRequiredOptionIsNamed() async throws {
        let project = try LanesCommandLine.project("options")
        let result = try await lanes.run(["deploy"], in: project)
        #expect(result.status == 78)
        #expect(result.standardError.contains("missing required option 'version'"))
    }
}

/// Ctrl-C: the lane unwinds, hooks and cleanups run, the exit status says so.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct InterruptTests {
    @Test func sigintStopsTheLaneAndRunsFinally() async throws {
        let project = try LanesCommandLine.project("interrupt")
        let lanes = LanesCommandLine()
        #expect(try await lanes.run(["list"], in: project).status == 0, "compile first, so the signal reaches the runner")
        let running = try lanes.start(["wait"], in: project)
        let started = await waitForStart(of: project)
        kill(running.pid, SIGINT)
        let result = await running.finish()
        #expect(result.status == 130, "\(result.output)")
        #expect(result.standardOutput.contains("finally wait ran"))
        #expect(result.standardError.contains("interrupted by a signal"), "\(result.standardError)")
        #expect(started, "the lane's child process started before the signal")

        // A Ctrl-C as the lane's first step starts: the runner takes signals over before the lane
        // starts, so on a busy machine too it is neither lost nor fatal before Finally runs.
        let early = try await lanes.run(["early"], in: project)
        #expect(early.status == 130, "\(early.output)")
        #expect(early.standardOutput.contains("finally early ran"), "\(early.output)")
    }

    @Test func temporaryKeychainIsGoneAfterSigintAndAfterAFailure() async throws {
        let project = try LanesCommandLine.project("keychain")
        let lanes = LanesCommandLine()
        let password = ["CERTIFICATE_PASSWORD": "brewer-3des-pass"]
        let keychains = project.appendingPathComponent(".lanes/keychains")

        let failed = try await lanes.run(["signThenFail"], in: project, extraEnvironment: password)
        #expect(failed.status == 1, "\(failed.output)")
        #expect(failed.standardOutput.contains("imported 'iPhone Distribution: Example Corp (ABCDE12345)'"))
        #expect(try FileManager.default.contentsOfDirectory(atPath: keychains.path).isEmpty)

        let running = try lanes.start(["sign"], in: project, extraEnvironment: password)
        #expect(await waitForStart(of: project))
        let sawKeychain = !(try FileManager.default.contentsOfDirectory(atPath: keychains.path)).isEmpty
        kill(running.pid, SIGINT)
        let interrupted = await running.finish()
        #expect(sawKeychain, "the keychain existed while the lane ran")
        #expect(interrupted.status == 130, "\(interrupted.output)")
        #expect(try FileManager.default.contentsOfDirectory(atPath: keychains.path).isEmpty)
        #expect(!interrupted.output.contains("brewer-3des-pass"))
    }

    /// Waits (up to two minutes: CI machines are busy) until the lane's shell step has started: it
    /// touches `lane-started` in the project before it sleeps.
    private func waitForStart(of project: URL) async -> Bool {
        let marker = project.appendingPathComponent("lane-started").path
        return await eventually(within: .seconds(120)) { FileManager.default.fileExists(atPath: marker) }
    }
}
