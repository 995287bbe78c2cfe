@testable import LanesImport
import Testing

/// Issue 34: an imported lane does what the Fastfile did or stops where it cannot: every
/// untranslated statement stops the lane at its place, every lane is kept under its own name, and
/// no credential is copied.
@Suite(.timeLimit(.minutes(3))) struct ImportBehaviourTests {
    @Test func everyUntranslatedStatementStopsTheLaneAtItsPlace() {
        let result = FastlaneImporter.importRuby("""
            lane :beta do
              gym(scheme: "App")
              files.each_slice(2) { |pair| puts pair }
              slack(message: "success")
            end
            """)
        let lines = result.lanefile.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        let stop = lines.firstIndex { $0.hasPrefix("try importTODO(line: 3, ") }
        let slack = lines.firstIndex { $0.contains("slack") && !$0.hasPrefix("//") }
        #expect(stop != nil, "\(result.lanefile)")
        if let stop, let slack { #expect(stop < slack) }
        #expect(result.lanefile.contains("func importTODO(line: Int, _ reason: String) throws {"))
    }

    @Test func everyLaneIsKeptUnderItsOwnName() {
        let result = FastlaneImporter.importRuby("""
            lane :"hotfix-start" do
              puts "start"
            end
            lane :beta do
              puts 1
            end
            lane :beta do
              puts 2
            end
            """)
        #expect(result.report.lanes.map(\.name) == ["hotfix_start", "beta", "beta_"])
        #expect(result.report.lostLanes == [])
        #expect(result.report.notes.contains { $0.contains("`hotfix-start` is the lane `hotfix_start` (`lanes hotfix-start` runs it too)") })
    }

    @Test func aLaneTheParserLosesIsReported() {
        // Counted line by line, apart from the parser: a lane inside `=begin`/`=end` is a comment.
        #expect(LaneCensus.rubyLanes(in: "lane :a do\nend\n=begin\nlane :b do\nend\n=end\nprivate_lane(:'c-d') do\nend\n") == ["a", "c-d"])
        #expect(LaneCensus.swiftLanes(in: "class Fastfile: LaneFile {\n    func betaLane() {}\n    func helper() {}\n}\n") == ["beta"])
        let entry = ImportReport.LaneEntry(name: "beta", fastlaneName: "ios beta", environment: [], secrets: [], options: [])
        #expect(LaneCensus.lost(["beta", "release"], imported: [entry]) == ["release"])
    }

    @Test func credentialsInLocalsConstantsAndLaneCallsAreSecrets() {
        let result = FastlaneImporter.importRuby("""
            HOOK = "https://hooks.slack.com/services/T0/B0/abcdefgh"
            API_TOKEN = "plain-looking-value"
            lane :notify do |options|
              password = "hunter2-hunter2"
              slack(message: "hi", slack_url: HOOK)
              sh "echo #{password}"
            end
            lane :release do
              notify(token: "abc-123-xyz", channel: "#ios")
              puts "ghp_0123456789abcdefghijklmnopqrstuvwxyzAB"
            end
            """)
        for value in ["hooks.slack.com", "plain-looking-value", "hunter2-hunter2", "abc-123-xyz", "ghp_0123456789"] {
            #expect(!result.lanefile.contains(value), "\(value) copied into\n\(result.lanefile)")
            #expect(!result.report.json.contains(value))
        }
        let names = Set(result.report.secretsToCreate.map(\.name))
        #expect(names.isSuperset(of: ["SLACK_URL", "API_TOKEN", "PASSWORD", "TOKEN", "GITHUB_TOKEN"]), "\(names)")
        // A credential constant stays a Secret: it can reach a secret option, never a command line.
        #expect(result.lanefile.contains(#"var HOOK: Secret { get throws { try secret("SLACK_URL") } }"#))
        #expect(result.lanefile.contains("\"#ios\""))
    }

    @Test func optionsAreTextUnlessEveryUseTestsThem() {
        let result = FastlaneImporter.importRuby("""
            lane :release do |options|
              if options[:version]
                increment_version_number(version_number: options[:version])
              end
              release = options[:release] || false
              UI.message("release") if release
            end
            """)
        // Tested first, then used as text: text (fastlane gives the text to the action).
        #expect(result.lanefile.contains(#"let releaseOptionVersion = LaneOption<String?>("version""#), "\(result.lanefile)")
        #expect(result.lanefile.contains("incrementVersionNumber(versionNumber: (try lane[releaseOptionVersion]))"))
        // Only ever tested, through a local: a flag.
        #expect(result.lanefile.contains(#"let releaseOptionRelease = LaneOption<Bool?>("release""#))
        #expect(result.report.todos.isEmpty, "\(result.report.todos)")
    }

    @Test func aStepResultFastlaneReturnsAsANumberTakesArithmetic() {
        let result = FastlaneImporter.importRuby("""
            lane :bump do
              increment_build_number(build_number: latest_testflight_build_number + 1, xcodeproj: "App.xcodeproj")
            end
            """)
        #expect(result.lanefile.contains("let value1 = try await latestTestflightBuildNumber()"), "\(result.lanefile)")
        #expect(result.lanefile.contains(#"buildNumber: String(((try requireValue(Int(value1.buildNumber), "the build number as a whole number")) + 1))"#))
        #expect(result.report.actions.map(\.outcome) == [.step, .step])
        #expect(result.report.todos.isEmpty)
    }

    @Test func optionsPassedOnReachTheLanesAndMethodsThatReadThem() {
        let result = FastlaneImporter.importRuby("""
            def sign(options)
              match(type: options[:type], readonly: true)
            end
            lane :release do |options|
              beta(options)
            end
            lane :beta do |options|
              sign(options)
              sign(type: "adhoc")
              gym(scheme: options[:scheme])
            end
            """)
        // The caller declares what its callees read, so `lanes release type:appstore scheme:App` reaches them.
        #expect(result.lanefile.contains(#"try await callLane("beta", passedOptions(["scheme": (try lane[releaseOptionScheme]), "type": (try lane[releaseOptionType])]))"#)
                || result.lanefile.contains(#"try await callLane("beta", passedOptions(["type": (try lane[releaseOptionType]), "scheme": (try lane[releaseOptionScheme])]))"#),
                "\(result.lanefile)")
        #expect(result.lanefile.contains(#"try await sign(passedOptions(["type": (try lane[betaOptionType])]))"#))
        #expect(result.lanefile.contains(#"try await sign(["type": "adhoc"])"#))
        #expect(result.lanefile.contains("func sign(_ options: [String: String]) async throws {"))
        #expect(result.report.todos.isEmpty, "\(result.report.todos)")
    }

    /// `key_content: "#{KEY}"` with `KEY = ENV["KEY"]` at the top: the key is that secret, read from
    /// the environment, not "a secret written in the Fastfile or computed" stopping the lane.
    @Test func aSecretConstantInterpolatedAloneIsThatSecret() {
        let result = FastlaneImporter.importRuby("""
            KEY = ENV["FASTLANE_KEY"]
            lane :beta do
              app_store_connect_api_key(key_id: "D383SF739A", issuer_id: "6053b7fe-68a8-4acb-89be-165aa6465141", key_content: "#{KEY}")
            end
            """)
        #expect(result.report.todos.isEmpty, "\(result.report.todos)")
        #expect(!result.lanefile.contains("importTODO"), "\(result.lanefile)")
        #expect(result.report.lanes.first { $0.name == "beta" }?.secrets == ["FASTLANE_KEY"], "\(result.report.lanes)")
        #expect(result.lanefile.contains("keyContent: (try KEY)"), "\(result.lanefile)")
    }

    @Test func instanceVariablesSetInOneBodyAreReadInAnother() {
        let result = FastlaneImporter.importRuby("""
            TEAM = ENV["TEAM_ID"]
            before_all do
              @plist = "App/Info.plist"
            end
            def stamp(value)
              set_info_plist_value(path: @plist, key: "CFBundleVersion", value: value)
            end
            lane :beta do
              stamp("42")
              puts TEAM
            end
            """)
        #expect(result.lanefile.contains(#"fastfile.plist = "App/Info.plist""#), "\(result.lanefile)")
        #expect(result.lanefile.contains(#"setInfoPlistValue(path: try requireValue(fastfile.plist, "set_info_plist_value's path")"#))
        // The variable a top-level constant reads is declared on the lane reading it (`lanes help beta` lists it).
        #expect(result.report.lanes.first { $0.name == "beta" }?.environment == ["TEAM_ID"])
        #expect(result.report.todos.isEmpty, "\(result.report.todos)")
    }

    @Test func swiftSideFilesForLaneAndEnvironmentValuesOfTheAppfile() {
        var configuration = FastlaneConfiguration()
        ConfigurationFiles.readSwift("Appfile", """
            var appIdentifier: String { return "com.example.mac" } // the bundle identifier
            var appleID: String { return "dev@example.com" }
            var itcTeam: String? { return "117871372" }
            var teamID: String { return "ABCDE12345" }
            """, into: &configuration)
        #expect(configuration.appfile == ["app_identifier": "com.example.mac", "apple_id": "dev@example.com",
                                          "itc_team_id": "117871372", "team_id": "ABCDE12345"])
        ConfigurationFiles.readSwift("Gymfile", """
            class Gymfile: GymfileProtocol {
              var scheme: String { return "Mac" }
              var outputDirectory: String { return "./build" }
            }
            """, into: &configuration)
        let swift = FastlaneImporter.importRuby("lane :beta do\n  gym\nend\n", configuration: configuration)
        #expect(swift.lanefile.contains(#"try await buildApp(scheme: "Mac", outputDirectory: "./build", exportMethod: .appStore)"#), "\(swift.lanefile)")

        var ruby = FastlaneConfiguration()
        ConfigurationFiles.read("Appfile", """
            app_identifier "com.example.app"
            team_id ENV["TEAM_ID"]
            for_platform :ios do
              for_lane :beta do
                app_identifier "com.example.app.beta"
              end
            end
            """, into: &ruby)
        #expect(ruby.laneAppfile == ["beta": ["app_identifier": "com.example.app.beta"]])
        let result = FastlaneImporter.importRuby("""
            lane :beta do
              match(type: "appstore", readonly: true)
            end
            lane :release do
              match(type: "appstore", readonly: true)
            end
            """, configuration: ruby)
        // for_lane wins in its lane; the ENV value is read when the lane runs and declared on it.
        #expect(result.lanefile.contains(#"syncCodeSigning(type: .appstore, appIdentifier: ["com.example.app.beta"], readonly: true"#), "\(result.lanefile)")
        #expect(result.lanefile.contains(#"syncCodeSigning(type: .appstore, appIdentifier: [appIdentifier], readonly: true"#))
        #expect(result.lanefile.contains(#"var teamId: String { get throws { (try env("TEAM_ID")) } }"#))
        #expect(result.report.lanes.map(\.environment) == [["TEAM_ID"], ["TEAM_ID"]])
        #expect(result.report.todos.isEmpty)
    }

    @Test func aStepThatLostOptionsSaysWhich() {
        let result = FastlaneImporter.importRuby("""
            lane :beta do
              gym(scheme: "App", no_such_option: true)
            end
            """)
        let entry = result.report.actions.first { $0.action == "gym" }
        #expect(entry?.outcome == .stepWithDroppedOptions)
        #expect(entry?.detail.contains("without no_such_option") == true)
        #expect(result.report.markdown.contains("1 became steps with dropped options"))
    }

    @Test func swiftFastfileLanesInExtensionsAndSelfCallsAreRead() {
        let result = FastlaneImporter.importSwift("""
            import Foundation
            class Fastfile: LaneFile {
                typealias Options = [String: String]
            }
            extension Fastfile {
                func releaseLane(options: Options) {
                    desc("Release")
                    self.testLane()
                }
            }
            extension Fastfile {
                func testLane() {
                    scan(scheme: "App")
                }
            }
            extension Dictionary where Key == String {
                func helper() -> Int { 1 }
            }
            """)
        #expect(result.report.lanes.map(\.name) == ["release", "test"])
        #expect(result.report.lostLanes == [])
        #expect(result.lanefile.contains(#"try await callLane("test")"#))
    }

    /// A Swift Fastfile's own accessor on its options (`extension Dictionary { func get(_ key: Key) -> Value }`)
    /// reads the lane option, as `options?["version"]` does; the lane no longer stops at a TODO there.
    @Test func aSwiftFastfilesOwnOptionsAccessorReadsTheLaneOption() {
        let result = FastlaneImporter.importSwift("""
            import Foundation
            class Fastfile: LaneFile {
                typealias Options = [String: String]
                func bumpLane(options: Options) {
                    let version = options.get("version")
                    setInfoPlistValue(path: "Info.plist", key: "CFBundleShortVersionString", value: version)
                }
            }
            extension Dictionary where Key == String, Value == String {
                func get(_ key: Key, function: String = #function) -> Value {
                    guard let value = self[key] else { fatalError("\\(function) Option: \\(key) must be available") }
                    return value
                }
            }
            """)
        #expect(!result.lanefile.contains("importTODO"), "\(result.lanefile)")
        #expect(result.lanefile.contains("options: [bumpOptionVersion]"), "\(result.lanefile)")
        #expect(result.lanefile.contains(#"key: "CFBundleShortVersionString", value: try requireValue(version"#), "\(result.lanefile)")
    }

    /// MapGL-iOS's rlz: a step result kept inside an `if` is out of Swift's scope after it, so a
    /// `lane_context` read there stops the lane (a TODO at its line) instead of naming a variable
    /// the Lanefile cannot see (it did not compile); read in the same block it is the result.
    @Test func aLaneContextValueSetInsideABranchStopsTheLaneWhenReadAfterIt() {
        let result = FastlaneImporter.importRuby("""
            lane :rlz do |options|
              version = options[:version]
              if version.to_s.empty?
                if options[:bump_type].to_s.empty?
                  version_bump_podspec(bump_type: "patch")
                end
                version = lane_context[SharedValues::PODSPEC_VERSION_NUMBER]
              else
                version_bump_podspec(version_number: version)
                tagged = lane_context[SharedValues::PODSPEC_VERSION_NUMBER]
                add_git_tag(tag: "v#{tagged}")
              end
              git_commit(message: "Bump up version to #{version}", path: ["./*"])
            end
            """)
        let lines = result.lanefile.split(separator: "\n").map { $0.trimmingCharacters(in: .whitespaces) }
        #expect(lines.contains { $0.hasPrefix("try importTODO(line: 7, ") || $0.contains("try importTODO(line: 7)") }, "\(result.lanefile)")
        let inner = lines.first { $0.hasPrefix("let versionBumpPodspecResult") && $0.contains("bumpType: .patch") }
        #expect(inner != nil, "\(result.lanefile)")
        // The else branch's own read is its result.
        #expect(lines.contains { $0.hasPrefix("let tagged = versionBumpPodspecResult") }, "\(result.lanefile)")
        #expect(result.report.actions.filter { $0.action == "version_bump_podspec" }.allSatisfy { $0.outcome == .step })
    }

    /// WhatsNewKit's `typealias Options = [String: String]` in the Fastfile class is a type's other
    /// name, not a statement: no TODO (it was "top-level Ruby outside lanes" in a Swift file).
    @Test func aSwiftFastfilesTypeAliasIsNoTODO() {
        let result = FastlaneImporter.importSwift("""
            import Foundation

            class Fastfile: LaneFile {
                typealias Options = [String: String]
                func testLane() {
                    desc("Run Tests")
                    scan(scheme: "App")
                }
            }
            """)
        #expect(!result.lanefile.contains("// TODO(import) Fastfile line"), "\(result.lanefile)")
        #expect(result.lanefile.contains("try await runTests(scheme: \"App\")"), "\(result.lanefile)")
    }
}
