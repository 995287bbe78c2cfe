@testable import LanesImport
import Testing

/// One test per construct the importer reads: a small Fastfile of our own, what the Lanefile says,
/// and what the report says. `ImportCompileTests` compiles the same constructs for real.
@Suite(.timeLimit(.minutes(3))) struct FastfileImportTests {
    func lanefile(_ fastfile: String, configuration: FastlaneConfiguration = FastlaneConfiguration()) -> ImportResult {
        FastlaneImporter.importRuby(fastfile, configuration: configuration)
    }

    func outcomes(_ result: ImportResult) -> [String: ImportReport.Outcome] {
        Dictionary(result.report.actions.map { ($0.action, $0.outcome) }, uniquingKeysWith: { first, _ in first })
    }

    @Test func actionsBecomeStepCallsWithLanesLabelsAndTypedValues() async {
        let result = lanefile("""
            lane :beta do
              gym(scheme: "App", export_method: "ad-hoc", clean: true, xcargs: "-allowProvisioningUpdates",)
              match type: "appstore",
                    readonly: true
              increment_version_number(bump_type: "minor")
            end
            """)
        #expect(result.lanefile.contains(#"try await buildApp(scheme: "App", clean: true, exportMethod: .adHoc, xcargs: "-allowProvisioningUpdates")"#))
        #expect(result.lanefile.contains("try await syncCodeSigning(type: .appstore, readonly: true)"))
        #expect(result.lanefile.contains("try await incrementVersionNumber(bumpType: .minor)"))
        #expect(result.report.actions.map(\.line) == [2, 3, 5])
        #expect(result.report.actions.allSatisfy { $0.outcome == .step && $0.lane == "beta" })
    }

    @Test func aliasesResolveToTheirSteps() async {
        let result = lanefile("""
            lane :all do
              gym
              scan(scheme: "AppTests")
              pilot(changelog: "new")
              deliver(force: true)
              match(type: "development")
              sigh(app_identifier: "com.example.app")
            end
            """)
        // gym without export_method exports for the App Store, fastlane's default, written out.
        for function in ["buildApp(exportMethod: .appStore)", "runTests(scheme:", "uploadToTestflight(", "uploadToAppStore(", "syncCodeSigning(type: .development)",
                         "getProvisioningProfile("] {
            #expect(result.lanefile.contains("try await \(function)"), "\(function) missing from\n\(result.lanefile)")
        }
        // Each is a step; those whose Fastfile options the step lacks say which were dropped.
        #expect(result.report.count(.step) + result.report.count(.stepWithDroppedOptions) == 6)
        for entry in result.report.actions where entry.outcome == .stepWithDroppedOptions {
            let dropped = result.report.droppedOptions.filter { $0.line == entry.line }.map(\.option)
            #expect(!dropped.isEmpty && dropped.allSatisfy { entry.detail.contains($0) }, "\(entry)")
        }
    }

    /// pod_lib_lint is one of fastlane's own actions (no lanes step yet): the report says so, and keeps
    /// "a plugin or the team's own action?" for names fastlane does not ship.
    @Test func theReportTellsFastlanesOwnActionsFromPluginsAndCustomActions() async {
        let result = lanefile("""
            lane :release do
              pod_lib_lint(allow_warnings: true)
              my_plugin_action(flavor: "beta")
            end
            """)
        let details = Dictionary(result.report.actions.map { ($0.action, $0.detail) }, uniquingKeysWith: { first, _ in first })
        #expect(details["pod_lib_lint"]?.contains("a fastlane action lanes has no step for") == true, "\(details)")
        #expect(details["pod_lib_lint"]?.contains("plugin") == false, "\(details)")
        #expect(details["my_plugin_action"]?.contains("a plugin or the team's own action?") == true, "\(details)")
    }

    @Test func implicitActionsAreDroppedWithACommentAndUnsupportedOnesRunThroughFastlane() async {
        let result = lanefile("""
            lane :ci do
              setup_ci
              badge(shield: "1.2-blue", no_badge: true)
              my_plugin_action(flavor: "beta", count: 3)
            end
            """)
        #expect(result.lanefile.contains("// fastlane's `setup_ci` is not needed:"))
        #expect(result.lanefile.contains(#"try await sh("fastlane", "run", "badge", "shield:1.2-blue", "no_badge:true")"#))
        #expect(result.lanefile.contains(#"try await sh("fastlane", "run", "my_plugin_action", "flavor:beta", "count:3")"#))
        #expect(result.lanefile.contains(#"tools: ["fastlane"]"#))
        let outcome = outcomes(result)
        #expect(outcome["setup_ci"] == .implicit)
        #expect(outcome["badge"] == .fastlane)
        #expect(outcome["my_plugin_action"] == .fastlane)
    }

    @Test func environmentVariablesAreDeclaredAndSecretLookingOnesAreSecrets() async {
        let result = lanefile("""
            lane :release do
              app_store_connect_api_key(key_id: ENV["ASC_KEY_ID"], issuer_id: ENV.fetch("ASC_ISSUER_ID"), key_content: ENV["ASC_KEY_CONTENT"])
              slack(message: "Released #{ENV['APP_NAME']}", slack_url: ENV["SLACK_URL"])
              UI.message("optional") if ENV["VERBOSE"]
              puts ENV.fetch("CHANNEL", "beta")
            end
            """)
        let lane = result.report.lanes.first
        #expect(lane?.environment == ["ASC_KEY_ID", "ASC_ISSUER_ID", "APP_NAME"])
        #expect(lane?.secrets == ["ASC_KEY_CONTENT", "SLACK_URL"])
        #expect(result.lanefile.contains(#"secrets: ["ASC_KEY_CONTENT", "SLACK_URL"]"#))
        #expect(result.lanefile.contains(#"slackURL: (try secret("SLACK_URL"))"#))
        // Tested or defaulted variables are read with a default and not required.
        #expect(result.lanefile.contains(#"if !(try env("VERBOSE", default: "")).isEmpty {"#))
        #expect(result.lanefile.contains(#"(try env("CHANNEL", default: "beta"))"#))
        #expect(result.report.secrets == ["ASC_KEY_CONTENT", "SLACK_URL"])
    }

    @Test func secretsNeverGoOnAFastlaneCommandLine() async {
        let result = lanefile("""
            lane :notify do
              discord_notifier(webhook_url: ENV["DISCORD_WEBHOOK_TOKEN"], title: "Built")
            end
            """)
        #expect(!result.lanefile.contains("DISCORD_WEBHOOK_TOKEN"))
        #expect(result.lanefile.contains(#"try await sh("fastlane", "run", "discord_notifier", "title:Built")"#))
        #expect(result.report.droppedOptions.first?.option == "webhook_url")
        #expect(result.report.droppedOptions.first?.reason.contains("never puts on a command line") == true)
        // In a shell string the shell reads the secret from its environment instead.
        let shell = lanefile(#"lane :u do\#n  sh("curl -H 'Authorization: #{ENV["API_TOKEN"]}' https://example.com")\#nend\#n"#)
        #expect(shell.lanefile.contains(#"try await sh("sh", "-c", "curl -H 'Authorization: ${API_TOKEN}' https://example.com", directory: "fastlane")"#))
        #expect(shell.report.lanes.first?.secrets == ["API_TOKEN"])
    }

    @Test func laneOptionsBecomeTypedLaneOptions() async {
        let result = lanefile("""
            lane :deploy do |options|
              version = options[:version]
              increment_version_number(version_number: options[:version])
              gym(clean: options[:clean])
              UI.important("skipping tests") if options[:skip_tests]
            end
            """)
        #expect(result.lanefile.contains(#"let deployOptionVersion = LaneOption<String?>("version""#))
        // Text unless every use only tests it; given to a flag it must read as one, or the lane stops naming it.
        #expect(result.lanefile.contains(#"let deployOptionClean = LaneOption<String?>("clean""#))
        #expect(result.lanefile.contains(#"buildApp(clean: (try parsedOption((try lane[deployOptionClean]), "gym's clean") { Bool(optionText: $0) }), exportMethod: .appStore)"#))
        #expect(result.lanefile.contains(#"let deployOptionSkipTests = LaneOption<Bool?>("skip_tests""#))
        #expect(result.lanefile.contains("options: [deployOptionVersion, deployOptionClean, deployOptionSkipTests]"))
        #expect(result.lanefile.contains("try await incrementVersionNumber(versionNumber: (try lane[deployOptionVersion]))"))
        #expect(result.lanefile.contains("if (try lane[deployOptionSkipTests]) == true {"))
        #expect(result.report.lanes.first?.options == ["version", "clean", "skip_tests"])
    }

    @Test func keywordLaneParametersBecomeTypedLaneOptionsWithTheirDefaults() async {
        let result = lanefile("""
            lane :release do |skip_confirm: false, version: nil, track: "beta", retries: 3, base:, limit: ENV["LIMIT"]|
              UI.message("to #{track} from #{base}") unless skip_confirm
              version ||= "1.0"
              increment_version_number(version_number: version)
            end
            """)
        #expect(result.lanefile.contains(#"let releaseOptionSkipConfirm = LaneOption<Bool>("skip_confirm", "the skip_confirm: keyword of the Fastfile's lane release", default: false)"#))
        #expect(result.lanefile.contains(#"let releaseOptionVersion = LaneOption<String?>("version""#))
        #expect(result.lanefile.contains(#"LaneOption<String>("track", "the track: keyword of the Fastfile's lane release", default: "beta")"#))
        #expect(result.lanefile.contains(#"LaneOption<Int>("retries", "the retries: keyword of the Fastfile's lane release", default: 3)"#))
        #expect(result.lanefile.contains(#"LaneOption<String>("base", "the base: keyword of the Fastfile's lane release")"#))
        #expect(result.lanefile.contains("let skip_confirm = try lane[releaseOptionSkipConfirm]"))
        #expect(result.lanefile.contains("var version = try lane[releaseOptionVersion]"))
        #expect(result.lanefile.contains("if !(skip_confirm) {"))
        #expect(result.lanefile.contains("incrementVersionNumber(versionNumber: version)"))
        #expect(result.report.lanes.first?.options == ["skip_confirm", "version", "track", "retries", "base"])
        #expect(!result.lanefile.contains("releaseOptionLimit"), "a computed default is not a lane option")
        #expect(result.report.todos.isEmpty, "\(result.report.todos)")
    }

    @Test func constantsInstanceAndGlobalVariablesALaneAssignsAreItsLocals() async {
        let result = lanefile("""
            TEAM = "ABCDE12345"
            lane :stamp do |options|
              BUILD_NUMBER = options[:build]
              @plist = "App/Info.plist"
              $scheme = "App"
              set_info_plist_value(path: @plist, key: "CFBundleVersion", value: BUILD_NUMBER)
              gym(scheme: $scheme, xcargs: TEAM)
            end
            lane :other do
              set_info_plist_value(path: @plist, key: "K", value: "v")
              TEAM = "changed"
            end
            lane :clash do
              plist = "a"
              @plist = "b"
            end
            $app_name = "App"
            app_name = "Other"
            lane :globals do
              gym(scheme: $app_name)
            end
            """)
        #expect(result.lanefile.contains("let BUILD_NUMBER = (try lane[stampOptionBuild])"))
        #expect(result.lanefile.contains(#"let scheme = "App""#))
        // `@plist` is read by another lane too: Ruby keeps it for the run, so the Lanefile does (FastfileVariables).
        #expect(result.lanefile.contains(#"fastfile.plist = "App/Info.plist""#))
        #expect(result.lanefile.contains("    var plist: String?"))
        // A required step option fed a value that may be nil stops the lane naming it, as fastlane does.
        #expect(result.lanefile.contains(#"setInfoPlistValue(path: try requireValue(fastfile.plist, "set_info_plist_value's path"), key: "CFBundleVersion", value: try requireValue(BUILD_NUMBER, "set_info_plist_value's value"))"#))
        #expect(result.lanefile.contains("buildApp(scheme: scheme"))
        let stamp = result.report.actions.filter { $0.lane == "stamp" }
        #expect(stamp.map(\.outcome) == [.step, .step])
        // A plain local and the shared `@plist` are two names.
        #expect(result.lanefile.contains(#"let plist = "a""#) && result.lanefile.contains(#"fastfile.plist = "b""#))
        // Shadowing a top-level constant (or a plain name taking a global's Swift name): still a TODO.
        #expect(result.report.todos.map(\.line).sorted() == [11, 18])
        // A top-level `$name` is read by every lane like a constant; a plain name taking its Swift name stays a TODO.
        #expect(result.lanefile.contains(#"let app_name = "App""#))
        #expect(result.lanefile.contains(#"try await buildApp(scheme: app_name, exportMethod: .appStore)"#))
    }

    @Test func hooksBecomeLanesHooks() async {
        let result = lanefile("""
            before_all do |lane, options|
              ensure_git_status_clean
            end
            after_all do |lane|
              slack(message: "#{lane} done")
            end
            error do |lane, exception|
              slack(message: "#{lane} failed: #{exception.message}", success: false)
            end
            lane :build do
              gym
            end
            """)
        #expect(result.lanefile.contains("BeforeEach { lane in\n        try await ensureGitStatusClean()"))
        #expect(result.lanefile.contains(#"AfterSuccess { lane in"# + "\n" + #"        try await slack(message: "\(lane.name) done")"#))
        #expect(result.lanefile.contains(#"OnError { lane, error in"# + "\n" + #"        try await slack(message: "\(lane.name) failed: \("\(error)")", success: false)"#))
    }

    @Test func platformBlocksNameLanesAsFastlaneRunsThem() async {
        let result = lanefile("""
            default_platform(:ios)
            platform :ios do
              lane :beta do
                gym
              end
              lane :screenshots do
                capture_screenshots
              end
            end
            platform :mac do
              lane :beta do
                gym(export_method: "developer-id")
              end
            end
            """)
        #expect(result.report.lanes.map(\.name) == ["ios_beta", "screenshots", "mac_beta"])
        #expect(result.report.lanes.map(\.fastlaneName) == ["ios beta", "ios screenshots", "mac beta"])
        #expect(result.lanefile.contains(#"Lane("mac_beta", "Imported from the Fastfile's lane mac beta") {"#))
        #expect(outcomes(result)["default_platform"] == .implicit)
    }

    @Test func descAndPrivateLanesAndCallsOfOtherLanes() async {
        let result = lanefile("""
            desc "Builds the app"
            private_lane :build do |options|
              gym(scheme: options[:scheme])
            end
            lane :release do
              build(scheme: "App")
              build
            end
            """)
        #expect(result.lanefile.contains(#"Lane("build", "Builds the app (private_lane in the Fastfile)""#))
        #expect(result.lanefile.contains(#"try await callLane("build", ["scheme": "App"])"#))
        #expect(result.lanefile.contains(#"try await callLane("build")"#))
    }

    @Test func conditionsCaseAndModifiers() async {
        let result = lanefile("""
            lane :check do |options|
              branch = git_branch
              if branch == "main"
                puts "on main"
              elsif branch.start_with?("release/")
                puts "release"
              else
                UI.user_error!("wrong branch #{branch}")
              end
              unless is_ci
                puts "local"
              end
              case options[:kind]
              when "beta", "alpha" then puts "test build"
              else puts "store build"
              end
              puts "never" if false
              sh("swift", "build") unless options[:fast]
              puts "bump" if ENV["BUMP"] === "true"
            end
            """)
        let text = result.lanefile
        // `===` on text is `==`; on a class, range or regex it would not be, and stays a TODO.
        #expect(text.contains(#"if ((try env("BUMP", default: "")) == "true") {"#))
        let classCase = lanefile("lane :x do\n  puts \"s\" if String === ENV[\"X\"]\n  puts \"r\" if (1..3) === 2\nend\n")
        #expect(classCase.report.todos.count == 2, "\(classCase.report.todos)")
        #expect(text.contains("let branch = try await gitBranch()"))
        #expect(text.contains(#"if (branch == "main") {"#))
        #expect(text.contains(#"if (branch ?? "").hasPrefix("release/") {"#))
        #expect(text.contains(#"try fail("wrong branch \(branch ?? "")")"#))
        #expect(text.contains("if !(isCI) {"))
        #expect(text.contains("switch (try lane[checkOptionKind]) {"))
        #expect(text.contains(#"case "beta", "alpha":"#))
        #expect(text.contains("default:"))
        #expect(text.contains(#"try await sh("swift", "build", directory: "fastlane")"#))
        #expect(result.report.todos.isEmpty, "\(result.report.todos)")
    }

    @Test func stringsArraysAndHashesInBothSpellings() {
        let result = lanefile("""
            lane :build do
              name = 'App'
              gym(scheme: "#{name}-Release", export_options: { method: "ad-hoc", "provisioningProfiles" => { "com.example.app" => "App AdHoc" } })
              scan(devices: ["iPhone 15", "iPad Air"], only_testing: %w[AppTests/LoginTests])
              upload_to_testflight(groups: "QA, Beta")
            end
            """)
        #expect(result.lanefile.contains(#"let name = "App""#))
        #expect(result.lanefile.contains(#"scheme: "\(name)-Release""#))
        #expect(result.lanefile.contains(#"exportOptions: ["method": "ad-hoc", "provisioningProfiles": ["com.example.app": "App AdHoc"]]"#))
        #expect(result.lanefile.contains(#"devices: ["iPhone 15", "iPad Air"]"#))
        #expect(result.lanefile.contains(#"onlyTesting: ["AppTests/LoginTests"]"#))
        #expect(result.lanefile.contains(#"groups: ["QA", "Beta"]"#))
    }

    @Test func laneContextValuesAreTheResultsOfTheStepsThatSetThem() async {
        let result = lanefile("""
            lane :ship do
              gym(scheme: "App")
              puts "Built #{lane_context[SharedValues::IPA_OUTPUT_PATH]}"
              zip(path: lane_context[SharedValues::DSYM_OUTPUT_PATH], output_path: "dsyms.zip")
            end
            """)
        #expect(result.lanefile.contains(#"let buildAppResult = try await buildApp(scheme: "App", exportMethod: .appStore)"#))
        #expect(result.lanefile.contains(#"try echo("Built \(buildAppResult.path ?? "")")"#))
        // zip's path must be a String and dSYMZipPath is optional: without a dSYM zip the step stops naming
        // the option, as fastlane stops on a nil required option.
        #expect(result.lanefile.contains(#"try await zip(path: try requireValue(buildAppResult.dSYMZipPath, "zip's path")"#))
        #expect(result.report.todos.isEmpty, "\(result.report.todos)")
    }

    @Test func gradleBecomesTheGradleStepAndItsAPKPathItsResult() async {
        let result = lanefile("""
            lane :android_beta do
              gradle(task: "assemble", flavor: "prod", build_type: "Release", project_dir: "android/")
              gradle(task: "bundle", properties: { "versionCode" => 12, "versionName" => ENV["VERSION"] })
              puts "Built #{lane_context[SharedValues::GRADLE_APK_OUTPUT_PATH]}"
            end
            """)
        #expect(result.lanefile.contains(#"let gradleResult = try await gradle(task: "assemble", flavor: "prod", buildType: "Release", projectDir: "android/")"#),
                "\(result.lanefile)")
        // lane_context holds the last gradle run's value.
        #expect(result.lanefile.contains(#"try echo("Built \(gradleResult2.apkPath ?? "")")"#), "\(result.lanefile)")
        // A properties hash is name=value entries: dropping it would build with other versions silently.
        #expect(result.lanefile.contains(#"properties: ["versionCode=" + String(12), "versionName=" + (try env("VERSION"))]"#), "\(result.lanefile)")
        #expect(!result.lanefile.contains(#"sh("fastlane""#))
        #expect(result.report.todos.isEmpty, "\(result.report.todos)")
    }

    @Test func shellCommandsRunInTheFastlaneFolderLikeFastlane() async {
        let result = lanefile("""
            lane :tools do
              sh("./scripts/prepare.sh --fast")
              sh("git", "fetch", "--tags")
              Dir.chdir("..") do
                sh("make")
              end
              version = sh("git describe --tags", log: false).strip
            end
            """)
        #expect(result.lanefile.contains(#"try await sh("sh", "-c", "./scripts/prepare.sh --fast", directory: "fastlane")"#))
        #expect(result.lanefile.contains(#"try await sh("git", "fetch", "--tags", directory: "fastlane")"#))
        #expect(result.lanefile.contains(#"try await sh("sh", "-c", "make")"#))
        #expect(result.report.droppedOptions.map(\.option) == ["log"])
    }

    @Test func importAndUnreadableRubyBecomeTODOBlocksWithTheOriginalText() async {
        let result = lanefile("""
            import_from_git(url: "https://github.com/example/fastlane-shared")
            require 'json'
            lane :meta do
              data = JSON.parse(File.read("meta.json"))
              gym(scheme: data["scheme"])
              self.class.send(:define_method, :x) { 1 }
            end
            """)
        #expect(result.lanefile.contains("// TODO(import) Fastfile line 1:"))
        #expect(result.lanefile.contains("// import_from_git(url: \"https://github.com/example/fastlane-shared\")"))
        #expect(result.lanefile.contains("// require 'json'"))
        #expect(result.lanefile.contains("// data = JSON.parse(File.read(\"meta.json\"))"))
        #expect(result.lanefile.contains("let data: String = try importTODO(line: 4)"))
        #expect(result.lanefile.contains("func importTODO<Value>(line: Int) throws -> Value {"))
        #expect(result.report.todos.map(\.line).contains(6))
        #expect(outcomes(result)["import_from_git"] == .todo)
        // Nothing is silently dropped: every action call has an entry.
        #expect(result.report.actions.contains { $0.action == "gym" })
    }

    @Test func rubyHelperMethodsBecomeSwiftFunctions() async {
        let result = lanefile("""
            def notify(text, channel: "#ios")
              slack(message: text, channel: channel, slack_url: ENV["SLACK_URL"])
            end
            lane :beta do
              gym
              notify("Beta built")
            end
            """)
        #expect(result.lanefile.contains(##"func notify(_ text: String, channel: String = "#ios") async throws {"##))
        #expect(result.lanefile.contains(#"try await notify("Beta built")"#))
        #expect(result.report.lanes.first?.secrets == ["SLACK_URL"])
    }

    @Test func configurationFilesGiveDefaultsAndTheAppfileItsValues() async {
        var configuration = FastlaneConfiguration()
        ConfigurationFiles.read("Appfile", #"app_identifier("com.example.app")"# + "\napple_id \"dev@example.com\"\nteam_id \"ABCDE12345\"\n", into: &configuration)
        ConfigurationFiles.read("Matchfile", "git_url(\"git@example.com:certs.git\")\ntype(\"appstore\")\nstorage_mode('git')\n", into: &configuration)
        ConfigurationFiles.read("Gymfile", "scheme \"App\"\nexport_method \"app-store\"\n", into: &configuration)
        ConfigurationFiles.read("Pluginfile", "gem 'fastlane-plugin-versioning'\n", into: &configuration)
        #expect(configuration.appfile == ["app_identifier": "com.example.app", "apple_id": "dev@example.com", "team_id": "ABCDE12345"])
        let result = lanefile("lane :beta do\n  match(readonly: true)\n  gym\nend\n", configuration: configuration)
        #expect(result.lanefile.contains(#"let appIdentifier = "com.example.app""#))
        #expect(result.lanefile.contains(#"try await syncCodeSigning(type: .appstore, appIdentifier: [appIdentifier], readonly: true, storageMode: "git", gitURL: "git@example.com:certs.git""#))
        #expect(result.lanefile.contains(#"try await buildApp(scheme: "App", exportMethod: .appStore)"#))
        #expect(result.report.notes.contains { $0.contains("fastlane-plugin-versioning") })
    }

    @Test func swiftFastfilesMapTheSameWay() async {
        let result = FastlaneImporter.importSwift("""
            import Foundation

            class Fastfile: LaneFile {
                func betaLane(withOptions options: [String: String]?) {
                    desc("Push a beta")
                    syncCodeSigning(type: "appstore", readonly: .userDefined(true))
                    buildApp(scheme: "App", exportMethod: "app-store")
                    let token = environmentVariable(get: "SLACK_API_TOKEN")
                    if let version = options?["version"] {
                        incrementVersionNumber(versionNumber: version)
                    }
                    uploadToTestflight(changelog: "Beta \\(token)")
                }

                func onError(currentLane: String, errorInfo: String) {
                    slack(message: "failed", success: false)
                }
            }
            """)
        #expect(result.lanefile.contains(#"Lane("beta", "Push a beta", options: [betaOptionVersion], secrets: ["SLACK_API_TOKEN"]) { lane in"#))
        #expect(result.lanefile.contains("try await syncCodeSigning(type: .appstore, readonly: true)"))
        #expect(result.lanefile.contains(#"try await buildApp(scheme: "App", exportMethod: .appStore)"#))
        #expect(result.lanefile.contains("OnError { lane, error in"))
        #expect(result.report.actions.filter { $0.lane == "beta" }.map(\.action) == ["sync_code_signing", "build_app", "increment_version_number", "upload_to_testflight"])
    }

    @Test func theJSONReportListsEveryActionWithItsOutcome() throws {
        let result = lanefile("lane :a do\n  gym\n  setup_ci\n  badge\n  weird_thing(x: File.read('y'))\nend\n")
        let json = result.report.json
        #expect(json.contains(#""outcome" : "step""#))
        #expect(json.contains(#""outcome" : "implicit""#))
        #expect(json.contains(#""outcome" : "fastlane""#))
        #expect(json.contains(#""outcome" : "todo""#))
        #expect(json.contains(#""commands" : ["#))
        #expect(result.report.markdown.contains("lanes help a"))
    }

    @Test func compilerErrorsMapBackToFastfileLines() {
        let result = lanefile("lane :a do\n  gym(scheme: \"App\")\nend\n")
        let line = result.lanefile.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("buildApp") }.map { $0 + 1 } ?? 0
        let errors = result.mapCompilerOutput("/tmp/p/Lanefile.swift:\(line):9: error: cannot find 'buildApp' in scope\nnote: x\n")
        #expect(errors == [ImportReport.CompilerError(lanefileLine: line, fastfileLine: 2, message: "cannot find 'buildApp' in scope")])
    }
}
