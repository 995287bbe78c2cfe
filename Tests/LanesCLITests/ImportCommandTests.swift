import LanesPlatform
import Foundation
import LanesTestSupport
import Testing

/// `lanes import fastlane` end to end: a Fastfile with match, gym, pilot, an error block and ENV
/// secrets becomes a Lanefile that compiles through `lanes`, whose help lists the secrets, and whose
/// build lane runs on Linux with the stand-in xcodebuild.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct ImportCommandTests {
    static let standIn = LanesCommandLine.fixtures.appendingPathComponent("xcodebuild-standin").path
    static let ipa = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesBuildTests/Fixtures/ipa/Brewer-Staging.ipa").path
    static let brewer = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesXcodeTests/Fixtures/Brewer.xcodeproj")
    static let swiftDirectory = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .first { FileManager.default.isExecutableFile(atPath: "\($0)/swiftc") }.map(String.init) ?? "/usr/bin"
    let lanes = LanesCommandLine()

    static let fastfile = """
        default_platform(:ios)

        platform :ios do
          before_all do
            setup_ci
          end

          desc "Sign, build and upload a beta to TestFlight"
          lane :beta do
            app_store_connect_api_key(key_id: ENV["ASC_KEY_ID"], issuer_id: ENV["ASC_ISSUER_ID"], key_content: ENV["ASC_KEY_CONTENT"])
            match(type: "appstore", readonly: true, git_url: ENV["MATCH_GIT_URL"])
            gym(scheme: "Brewer", project: "Brewer.xcodeproj", export_method: "app-store", output_directory: "out")
            pilot(skip_waiting_for_build_processing: true, changelog: "Beta #{ENV['BUILD_NUMBER']}")
          end

          desc "Build for QA"
          lane :qa do |options|
            gym(scheme: "Brewer", project: "Brewer.xcodeproj", export_method: "ad-hoc", output_directory: "out", clean: options[:clean])
            UI.message("Built #{lane_context[SharedValues::IPA_OUTPUT_PATH]}")
          end

          desc "Stamp a build number into the plist"
          lane :stamp do |build: nil, dry_run: false|
            BUILD = build
            @plist = "Stamp/Info.plist"
            set_info_plist_value(path: @plist, key: "CFBundleVersion", value: BUILD) unless dry_run
          end

          error do |lane, exception|
            UI.error("Lane #{lane} failed: #{exception.message}")
          end
        end
        """

    func project() throws -> URL {
        let work = LanesCommandLine.temporaryDirectory("import")
        let project = work.appendingPathComponent("brewer")
        try FileManager.default.createDirectory(at: project.appendingPathComponent("fastlane"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.brewer, to: project.appendingPathComponent("Brewer.xcodeproj"))
        try Self.fastfile.write(to: project.appendingPathComponent("fastlane/Fastfile"), atomically: true, encoding: .utf8)
        try FileManager.default.createDirectory(at: project.appendingPathComponent("Stamp"), withIntermediateDirectories: true)
        try Data(#"<?xml version="1.0" encoding="UTF-8"?><plist version="1.0"><dict><key>CFBundleVersion</key><string>1</string></dict></plist>"#.utf8)
            .write(to: project.appendingPathComponent("Stamp/Info.plist"))
        try "app_identifier(\"works.sth.brewer\")\nteam_id(\"ABCDE12345\")\n"
            .write(to: project.appendingPathComponent("fastlane/Appfile"), atomically: true, encoding: .utf8)
        return project
    }

    @Test func aFastfileWithMatchGymPilotAndSecretsBecomesALanefileThatCompilesAndRuns() async throws {
        let project = try project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        let imported = try await lanes.run(["import", "fastlane", "--json", "--report", "import.json"], in: project)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.standardOutput.contains("it compiles"), "\(imported.output)")
        let report = try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent("import.json"))) as? [String: Any] ?? [:]
        let actions = report["actions"] as? [[String: Any]] ?? []
        let beta = actions.filter { $0["lane"] as? String == "beta" }
        #expect(beta.map { $0["action"] as? String ?? "" } == ["app_store_connect_api_key", "match", "gym", "pilot"])
        #expect(beta.allSatisfy { $0["outcome"] as? String == "step" })
        #expect(beta.map { $0["line"] as? Int ?? 0 } == [10, 11, 12, 13])
        #expect(report["secrets"] as? [String] == ["ASC_KEY_CONTENT"])
        #expect(report["compiled"] as? Bool == true)

        // `lanes help beta` names the declared secret and variables.
        let help = try await lanes.run(["help", "beta"], in: project)
        #expect(help.status == 0, "\(help.standardError)")
        for name in ["ASC_KEY_CONTENT", "ASC_KEY_ID", "MATCH_GIT_URL"] { #expect(help.output.contains(name), "\(name) not in\n\(help.output)") }

        // The QA lane builds for real with the stand-in xcodebuild and reads gym's result (lane_context).
        let calls = project.appendingPathComponent("xcodebuild-calls.txt")
        let environment = ["PATH": "\(Self.standIn):\(Self.swiftDirectory):/usr/bin:/bin", "XCODEBUILD_RECORD": calls.path, "XCODEBUILD_IPA": Self.ipa]
        let qa = try await lanes.run(["qa", "clean:true"], in: project, extraEnvironment: environment)
        #expect(qa.status == 0, "\(qa.output)")
        let recorded = (try? String(contentsOf: calls, encoding: .utf8)) ?? ""
        #expect(recorded.contains("archive\n"), "\(recorded)")
        #expect(recorded.contains("-exportArchive"), "\(recorded)")
        #expect(qa.standardOutput.contains("Built ") && qa.output.contains("out/"), "\(qa.output)")

        // Keyword lane options, a constant and an instance variable the lane assigns are typed Swift: the step
        // writes the given build number, skips on dry_run, and stops naming the option when build is not given.
        let stamps = actions.filter { $0["lane"] as? String == "stamp" }
        #expect(stamps.map { $0["outcome"] as? String ?? "" } == ["step"])
        let stamped = try await lanes.run(["stamp", "build:42"], in: project)
        #expect(stamped.status == 0, "\(stamped.output)")
        let plist = project.appendingPathComponent("Stamp/Info.plist")
        #expect(((try? String(contentsOf: plist, encoding: .utf8)) ?? "").contains("<string>42</string>"))
        let dry = try await lanes.run(["stamp", "build:43", "dry_run:true"], in: project)
        #expect(dry.status == 0, "\(dry.output)")
        #expect(((try? String(contentsOf: plist, encoding: .utf8)) ?? "").contains("<string>42</string>"))
        let missing = try await lanes.run(["stamp"], in: project)
        #expect(missing.status != 0)
        #expect(missing.output.contains("set_info_plist_value's value has no value"), "\(missing.output)")

        // The beta lane stops at the first step that cannot work here, and the error block runs,
        // without printing the secret.
        let secretValue = "Canary-Key-Content-25"
        let failed = try await lanes.run(["beta"], in: project, extraEnvironment: environment.merging([
            "ASC_KEY_ID": "D383SF739A", "ASC_ISSUER_ID": "6053b7fe-68a8-4acb-89be-165aa6465141", "ASC_KEY_CONTENT": secretValue,
            "MATCH_GIT_URL": project.appendingPathComponent("no-such-storage.git").path, "BUILD_NUMBER": "7",
        ]) { $1 })
        #expect(failed.status != 0)
        #expect(failed.output.contains("Lane beta failed:"), "\(failed.output)")
        #expect(!failed.output.contains(secretValue))
    }

    /// Values flow as in fastlane: a hook sets `@plist` that a method reads, a lane passes its options
    /// on to another lane and to a method, and a top-level constant's variable is declared on its lane.
    @Test func optionsAndInstanceVariablesFlowBetweenLanesHooksAndMethods() async throws {
        let project = try project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        try """
            TEAM = ENV["STAMP_TEAM"]
            def stamp_plist(options)
              set_info_plist_value(path: @plist, key: "CFBundleVersion", value: options[:build])
            end
            before_all do
              @plist = "Stamp/Info.plist"
            end
            lane :release do |options|
              UI.message("dry run") if options[:dry_run]
              stamp(options)
            end
            lane :stamp do |options|
              stamp_plist(options)
              set_info_plist_value(path: @plist, key: "CFBundleShortVersionString", value: options[:version] || "1.0")
              puts "team #{TEAM}"
            end
            lane :pack do |options|
              gym(scheme: "Brewer", project: "Brewer.xcodeproj", export_method: options[:method])
            end
            """.write(to: project.appendingPathComponent("fastlane/Fastfile"), atomically: true, encoding: .utf8)
        try "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>CFBundleVersion</key>\n\t<string>1</string>\n</dict>\n</plist>\n"
            .write(to: project.appendingPathComponent("Stamp/Info.plist"), atomically: true, encoding: .utf8)
        let imported = try await lanes.run(["import", "fastlane", "--json", "--report", "import.json"], in: project)
        #expect(imported.status == 0, "\(imported.output)")
        #expect(imported.standardOutput.contains("it compiles"), "\(imported.output)")
        let help = try await lanes.run(["help", "release"], in: project)
        for name in ["build", "version", "STAMP_TEAM"] { #expect(help.output.contains(name), "\(name) not in\n\(help.output)") }
        let released = try await lanes.run(["release", "build:42", "version:2.0"], in: project, extraEnvironment: ["STAMP_TEAM": "T1"])
        #expect(released.status == 0, "\(released.output)")
        #expect(released.standardOutput.contains("team T1"), "\(released.output)")
        let plist = (try? String(contentsOf: project.appendingPathComponent("Stamp/Info.plist"), encoding: .utf8)) ?? ""
        #expect(plist.contains("<string>42</string>") && plist.contains("<string>2.0</string>"), "\(plist)")
        // Without the build number the method's step stops the lane naming it, as fastlane's action does.
        let missing = try await lanes.run(["release", "version:3.0"], in: project, extraEnvironment: ["STAMP_TEAM": "T1"])
        #expect(missing.status != 0)
        #expect(missing.output.contains("set_info_plist_value's value has no value"), "\(missing.output)")
        // A value the step does not take stops the lane naming the option, never a silent default.
        let bogus = try await lanes.run(["pack", "method:bogus"], in: project)
        #expect(bogus.status != 0)
        #expect(bogus.output.contains(#"gym's export_method does not take the value "bogus""#), "\(bogus.output)")
    }

    @Test func anExistingLanefileIsNeverOverwrittenWithoutForce() async throws {
        let project = try project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        try "// mine\n".write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let refused = try await lanes.run(["import", "fastlane", "--no-compile"], in: project)
        #expect(refused.status == 78, "\(refused.output)\(refused.standardError)")
        #expect(refused.standardError.contains("already exists") && refused.standardError.contains("--force"), "\(refused.standardError)")
        #expect(try String(contentsOf: project.appendingPathComponent("Lanefile.swift"), encoding: .utf8) == "// mine\n")
        let forced = try await lanes.run(["import", "fastlane", "--no-compile", "--force"], in: project)
        #expect(forced.status == 0, "\(forced.standardError)")
        #expect(try String(contentsOf: project.appendingPathComponent("Lanefile.swift"), encoding: .utf8).contains("let lanes = Lanefile {"))
    }

    @Test func outputChoosesTheLanefileAndAMissingFastfileIsAUsageError() async throws {
        let project = try project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        let output = project.appendingPathComponent("Broken.swift")
        let imported = try await lanes.run(["import", "fastlane", "--no-compile", "--output", output.path], in: project)
        #expect(imported.status == 0, "\(imported.standardError)")
        #expect(FileManager.default.fileExists(atPath: output.path))
        let missing = try await lanes.run(["import", "fastlane", "nowhere"], in: project)
        #expect(missing.status == 64, "\(missing.standardError)")
        #expect(missing.standardError.contains("no Fastfile") || missing.standardError.contains("does not exist"), "\(missing.standardError)")
    }

    /// A type-check whose compiler dies printing nothing (swift-frontend segfaulted so on the loaded
    /// machine) is said as such, not as "does not compile yet (0 errors)".
    @Test func aCompilerThatDiesSilentlyIsNotReportedAsZeroErrors() async throws {
        let project = try project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        let compiler = project.appendingPathComponent("dying-swiftc")
        try AtomicFile.write("#!/bin/sh\nkill -SEGV $$\n", to: compiler.path, permissions: 0o755)
        let imported = try await lanes.run(["import", "fastlane"], in: project, extraEnvironment: ["LANES_SWIFTC": compiler.path])
        #expect(imported.status == 65, "\(imported.output)")
        #expect(imported.standardError.contains("failed without an error message (the compiler crashed?)"), "\(imported.standardError)")
        #expect(!imported.standardError.contains("0 errors"), "\(imported.standardError)")
        #expect(imported.standardOutput.contains("The type-check ended with status 139 and no error"), "\(imported.standardOutput)")
    }

    @Test func initInAFastlaneProjectOffersTheImport() async throws {
        let project = try project()
        defer { try? FileManager.default.removeItem(at: project.deletingLastPathComponent()) }
        // No terminal (issue 34): the project has fastlane, so `lanes init` imports it, and says so.
        let offered = try await lanes.run(["init"], in: project)
        #expect(offered.status == 0, "\(offered.output)")
        #expect(offered.standardOutput.contains("This project has fastlane/Fastfile. Import it"), "\(offered.standardOutput)")
        #expect(offered.standardOutput.contains("not a terminal: importing fastlane/Fastfile (pass --template for the template instead)"))
        let lanefile = try String(contentsOf: project.appendingPathComponent("Lanefile.swift"), encoding: .utf8)
        #expect(lanefile.contains("// Imported from fastlane/Fastfile"))
        #expect(lanefile.contains(#"Lane("beta", "Sign, build and upload a beta to TestFlight""#))
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("lanes-import.md").path))
        // What the import wrote besides the Lanefile stays out of git.
        let gitignore = try String(contentsOf: project.appendingPathComponent(".gitignore"), encoding: .utf8)
        #expect(gitignore.contains(".lanes/\n") && gitignore.contains("/lanes-import.md\n"), "\(gitignore)")
        // fastlane's muscle memory, `lanes ios beta`, names the lane lanes runs (the runner is given
        // --project-dir and --lanefile before the user's words).
        let webhook = "https://hooks.slack.com/services/T0/B0/s3cretWebhookPath"
        let platformWords = try await lanes.run(["ios", "beta", "slack_url:\(webhook)"], in: project)
        #expect(platformWords.status == 64, "\(platformWords.output)")
        #expect(platformWords.standardError.contains("`lanes ios beta` is fastlane's way of naming a lane; here it is `lanes beta slack_url:…`"),
                "\(platformWords.standardError)")
        #expect(!platformWords.output.contains("s3cretWebhookPath"), "an option's value is never echoed: \(platformWords.output)")
        let templated = try await lanes.run(["init", "--template", "--force"], in: project)
        #expect(templated.status == 0, "\(templated.output)")
        #expect(!(try String(contentsOf: project.appendingPathComponent("Lanefile.swift"), encoding: .utf8)).contains("// Imported from"))
    }
}
