import LanesTestSupport
import Foundation
import Testing
import LanesPlatform
@testable import LanesCommands

/// What a fastlane user meets first: help that shows lanes, lane help, suggestions on a typo, both
/// `--env` spellings, `lanes env` without secret values, `--version`, cron's seed, `lanes init`.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct CommandLineExperienceTests {
    static let golden = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    let lanes = LanesCommandLine()

    func expectGolden(_ actual: String, _ file: String) throws {
        let expected = try String(contentsOf: Self.golden.appendingPathComponent(file), encoding: .utf8)
        #expect(actual == expected, "differs from Golden/\(file):\n\(actual)")
    }

    /// Standard output without the driver's "Compiling ..." line (present or not depending on test order).
    func withoutCompiling(_ text: String) -> String {
        text.split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Compiling ") }.joined(separator: "\n")
    }

    @Test func topLevelHelpShowsHowToRunALaneEverySubcommandAndTheLanes() async throws {
        let project = try LanesCommandLine.project("described")
        for words in [["--help"], ["-h"], ["help"], []] {
            let result = try await lanes.run(words, in: project)
            #expect(result.status == 0)
            let help = result.standardOutput
            #expect(help.contains("USAGE: lanes LANE [key:value ...] [--env NAME[,NAME...]] [--json] [--junit PATH] [--lanefile PATH]"))
            for subcommand in LanesCommand.configuration.subcommands.map({ $0._commandName }) + ["list", "help LANE"] {
                #expect(help.contains("\n  \(subcommand) "), "lanes \(words) does not show \(subcommand)")
            }
            #expect(help.contains("LANES ("))
            #expect(help.contains("  deploy   Ships a version\n"))
            #expect(help.contains("  nightly  Runs at night\n"))
        }
    }

    @Test func topLevelHelpWithoutALanefileSaysHowToMakeOne() async throws {
        let result = try await lanes.run(["--help"], in: LanesCommandLine.temporaryDirectory("nolanefile"))
        #expect(result.status == 0)
        #expect(result.standardOutput.contains("No Lanefile.swift in this folder or above: `lanes init` creates one."))
    }

    @Test func laneHelpBothWays() async throws {
        let project = try LanesCommandLine.project("described")
        let help = try await lanes.run(["help", "deploy"], in: project)
        #expect(help.status == 0)
        try expectGolden(help.standardOutput, "help-deploy.txt")
        let flag = try await lanes.run(["deploy", "--help"], in: project)
        #expect(flag.standardOutput == help.standardOutput)
        let subcommand = try await lanes.run(["help", "cron"], in: project)
        #expect(subcommand.standardOutput.contains("lanes cron"))
        let typo = try await lanes.run(["help", "deplyo"], in: project)
        #expect(typo.status == 64)
        #expect(typo.standardError.contains("did you mean deploy?"))
        // Issue 33: a step's page when no lane has the name, with its aliases and fastlane's variables.
        let step = try await lanes.run(["help", "update_code_signing_settings"], in: project)
        #expect(step.status == 0)
        #expect(step.standardOutput.contains("also named: path") && step.standardOutput.contains("then FL_PROJECT_SIGNING_PROJECT_PATH"))
    }

    @Test func aTypoInAmongTwoThousandLanesGetsAShortHint() async throws {
        let project = LanesCommandLine.temporaryDirectory("many")
        try """
            import Lanes
            let lanes = Lanefile {
                for index in 0..<2000 { Lane("lane\\(index)", "Lane number \\(index)") {} }
            }
            """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let result = try await lanes.run(["lane1999x"], in: project)
        #expect(result.status == 64)
        let message = withoutCompiling(result.standardError)
        #expect(message.hasPrefix("error: no lane named 'lane1999x' in the Lanefile\n  hint: did you mean lane1999 or "))
        #expect(message.contains("and 1992 more (lanes list shows them all)"))
        #expect(message.utf8.count < 300, "\(message.utf8.count) bytes")
    }

    @Test func envTakesBothSpellingsAndSeveralNames() async throws {
        let project = try LanesCommandLine.project("basic")
        try "FROM_ENV=demo\nFROM_STAGING=demo\n".write(to: project.appendingPathComponent(".env.demo"), atomically: true, encoding: .utf8)
        try "FROM_STAGING=extra\n".write(to: project.appendingPathComponent(".env.extra"), atomically: true, encoding: .utf8)
        let attached = try await lanes.run(["dotenv", "--env=demo"], in: project)
        #expect(attached.status == 0)
        #expect(attached.standardOutput.contains("FROM_ENV=demo FROM_STAGING=demo"))
        let several = try await lanes.run(["dotenv", "--env", "demo,extra"], in: project)
        #expect(several.status == 0)
        #expect(several.standardOutput.contains("FROM_ENV=demo FROM_STAGING=extra"))
        let missing = try await lanes.run(["dotenv", "--env", "demo,nope"], in: project)
        #expect(missing.status == 78)
        #expect(missing.standardError.contains(".env.nope does not exist"))
    }

    @Test func envReportsWhatABugReportNeedsAndNoSecretValue() async throws {
        let project = try LanesCommandLine.project("described")
        let canary = "canary-\(UUID().uuidString)"
        let before = try await lanes.run(["env"], in: project, extraEnvironment: ["CANARY": canary])
        #expect(before.standardOutput.contains("(not compiled yet: lanes list compiles it)"))
        #expect(try await lanes.run(["list"], in: project).status == 0)
        let result = try await lanes.run(["env"], in: project, extraEnvironment: [
            "CANARY": canary, "KEYCHAIN_NAME": "ci", "JENKINS_URL": "https://ci.example.com/", "BUILD_NUMBER": "7",
        ])
        #expect(result.status == 0)
        let text = result.standardOutput
        for label in ["lanes:     0.", "Swift:     Swift version ", "OS:        ", "OpenSSL:   OpenSSL 3", "libgit2:   1.",
                      "CI:        Jenkins", "Lanefile:  ", "cache key: ", "(compiled)", "lanes:     3 (deploy, nightly, greet)",
                      "  KEYCHAIN_NAME: set", "  CANARY (secret): set"] {
            #expect(text.contains(label), "lanes env lacks \(label):\n\(text)")
        }
        #expect(!(result.standardOutput + result.standardError).contains(canary))
    }

    @Test func versionNamesTheCompilerAndTheInstallLocation() async throws {
        let result = try await lanes.run(["--version"], in: LanesCommandLine.temporaryDirectory("version"))
        #expect(result.status == 0)
        let lines = result.standardOutput.split(separator: "\n").map(String.init)
        #expect(lines.first?.hasPrefix("lanes 0.") == true)
        #expect(lines.contains { $0.hasPrefix("compiler:  Swift version ") })
        #expect(lines.contains { $0.hasPrefix("installed: /") })
    }

    /// The compiler runs once per toolchain: its version line is remembered in the runner cache,
    /// keyed by the compiler's fingerprint, so a changed compiler is asked again.
    @Test func versionAsksTheCompilerOncePerToolchain() async throws {
        let directory = LanesCommandLine.temporaryDirectory("version-cache")
        let compiler = directory.appendingPathComponent("swiftc")
        let calls = directory.appendingPathComponent("calls")
        // Through a close-on-exec descriptor: Foundation's atomic write holds mkstemp's descriptor,
        // which a child that another test spawns meanwhile inherits, and exec then fails (ETXTBSY).
        func writeCompiler(_ version: String) throws {
            try AtomicFile.write("#!/bin/sh\necho called >> '\(calls.path)'\necho 'Swift version \(version) (fake)'\n",
                                 to: compiler.path, permissions: 0o755)
        }
        try writeCompiler("9.1")
        let environment = ["LANES_SWIFTC": compiler.path, "LANES_CACHE_DIR": directory.appendingPathComponent("cache").path]
        func version() async throws -> String {
            let result = try await lanes.run(["--version"], in: directory, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            return result.standardOutput
        }
        func callCount() throws -> Int { try String(contentsOf: calls, encoding: .utf8).split(separator: "\n").count }
        #expect(try await version().contains("compiler:  Swift version 9.1 (fake) (\(compiler.path))"))
        #expect(try await version().contains("Swift version 9.1 (fake)"))
        #expect(try callCount() == 1)
        try writeCompiler("9.22")  // another size: another fingerprint
        #expect(try await version().contains("Swift version 9.22 (fake)"))
        #expect(try callCount() == 2)
    }

    /// A compiler that ends silently with a failure status (seen once on a loaded CI machine: 127 and
    /// no word) is run once more before the Lanefile is blamed; a second silent end is reported.
    @Test func aCompileThatEndsSilentlyOnceIsRunAgain() async throws {
        let project = try LanesCommandLine.project("basic")
        defer { try? FileManager.default.removeItem(at: project) }
        let realCompiler = try #require((ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) })
        let compiler = project.appendingPathComponent("silent-once-swiftc")
        let failures = project.appendingPathComponent("silent-failures")
        func writeCompiler(silentFailures: Int) throws {
            // The compile (the call with -o) ends silently with 127 the first `silentFailures` times.
            try AtomicFile.write("""
                #!/bin/sh
                case " $* " in *" -o "*)
                  if [ "$(wc -l < '\(failures.path)')" -lt \(silentFailures) ]; then echo x >> '\(failures.path)'; exit 127; fi;;
                esac
                exec '\(realCompiler)' "$@"

                """, to: compiler.path, permissions: 0o755)
        }
        try "".write(to: failures, atomically: true, encoding: .utf8)
        try writeCompiler(silentFailures: 1)
        let recovered = try await lanes.run(["greet"], in: project, extraEnvironment: ["LANES_SWIFTC": compiler.path])
        #expect(recovered.status == 0, "\(recovered.output)")
        #expect(recovered.standardError.contains("The compiler ended with status 127 and printed nothing; compiling once more"),
                "\(recovered.standardError)")
        #expect(recovered.standardOutput.contains("hello"), "\(recovered.output)")

        try "".write(to: failures, atomically: true, encoding: .utf8)
        try writeCompiler(silentFailures: 2)
        let original = try String(contentsOf: LanesCommandLine.fixtures.appendingPathComponent("basic/Lanefile.swift"), encoding: .utf8)
        try (original + "// edited\n").write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let failed = try await lanes.run(["greet"], in: project, extraEnvironment: ["LANES_SWIFTC": compiler.path])
        #expect(failed.status == 65, "\(failed.output)")
        #expect(failed.standardError.contains("did not compile: the compiler printed nothing and exited with status 127"), "\(failed.standardError)")
    }

    @Test func cronRefusesHWithoutASeed() async throws {
        let directory = LanesCommandLine.temporaryDirectory("cron")
        let unseeded = try await lanes.run(["cron", "next", "H 0 * * *"], in: directory)
        #expect(unseeded.status == 64)
        #expect(unseeded.standardError.contains("uses H, which Jenkins hashes from the job's name: pass --seed NAME"))
        #expect(try await lanes.run(["cron", "next", "@daily"], in: directory).status == 64)
        #expect(try await lanes.run(["cron", "next", "H 0 * * *", "--seed", "nightly"], in: directory).status == 0)
        #expect(try await lanes.run(["cron", "next", "5 0 * * *"], in: directory).status == 0)
    }

    @Test func listShowsEachScheduleSeedAndResolvedMinute() async throws {
        let project = try LanesCommandLine.project("described")
        let listed = try await lanes.run(["list"], in: project)
        let explained = try await lanes.run(["cron", "explain", "H 0 * * 0-4", "--seed", "nightly"], in: project)
        let minuteLine = try #require(explained.standardOutput.split(separator: "\n").first { $0.hasPrefix("  minute") })
        let minute = minuteLine.split(separator: " ").last.map(String.init) ?? ""
        #expect(listed.standardOutput.contains("H 0 * * 0-4 (seed nightly: minute \(minute), hour 0; next "))
    }
}
