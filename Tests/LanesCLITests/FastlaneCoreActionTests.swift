import Foundation
import LanesTestSupport
import Testing

/// Issue 33: fastlane's core actions lanes lacked, as steps, through the real `lanes`: on the
/// fixture Xcode project, the fixture .ipa, real files, and recording stand-ins for the tools that
/// cannot exist here (xcodebuild, sentry-cli).
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct FastlaneCoreActionTests {
    static let root = LanesCommandLine.repositoryRoot
    static let standIn = LanesCommandLine.fixtures.appendingPathComponent("xcodebuild-standin").path
    static let brewerProject = root.appendingPathComponent("Tests/LanesXcodeTests/Fixtures/Brewer.xcodeproj")
    /// works.sth.brewer.staging 2.4.0 (118).
    static let ipa = root.appendingPathComponent("Tests/LanesBuildTests/Fixtures/ipa/Brewer-Staging.ipa").path
    let lanes = LanesCommandLine()

    /// sentry_create_release, sentry_set_commits and sentry_finalize_release are sentry-cli's
    /// `releases new|set-commits|finalize` with the plugin's APP_IDENTIFIER@VERSION name; the token
    /// and organisation reach sentry-cli through its environment, never its arguments.
    @Test func sentryReleaseStepsRunSentryCLIReleases() async throws {
        let folder = LanesCommandLine.temporaryDirectory("sentry-release")
        let record = folder.appendingPathComponent("calls.txt")
        // Checked in: a script the test wrote could still be open for writing in a child a parallel test forked ("Text file busy").
        let cli = LanesCommandLine.fixtures.appendingPathComponent("sentry-cli-standin/sentry-cli")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let token = "sntrys_Canary-Token-33"
        let environment = ["SENTRY_AUTH_TOKEN": token, "SENTRY_ORG_SLUG": "sth", "SENTRY_CLI_RECORD": record.path]
        let common = ["project_slug:brewer", "version:1.4.0", "app_identifier:works.sth.brewer", "sentry_cli_path:\(cli.path)"]
        let created = try await lanes.run(["run", "sentry_create_release"] + common + ["finalize:true"], in: folder, extraEnvironment: environment)
        let commits = try await lanes.run(["run", "sentry_set_commits"] + common + ["auto:true"], in: folder, extraEnvironment: environment)
        let finalized = try await lanes.run(["run", "sentry_finalize_release"] + common, in: folder, extraEnvironment: environment)
        for result in [created, commits, finalized] {
            #expect(result.status == 0, "\(result.output)")
            #expect(!result.output.contains(token))
        }
        let calls = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(calls == [
            "releases|new|works.sth.brewer@1.4.0|--finalize|org=sth project=brewer token=set",
            "releases|set-commits|works.sth.brewer@1.4.0|--auto|org=sth project=brewer token=set",
            "releases|finalize|works.sth.brewer@1.4.0|org=sth project=brewer token=set",
        ], "\(calls)")
    }

    /// fastlane's xcarchive is xcodebuild with the archive action, on the folder's one project.
    @Test func xcarchiveArchivesTheFoldersProject() async throws {
        let folder = LanesCommandLine.temporaryDirectory("xcarchive")
        try FileManager.default.copyItem(at: Self.brewerProject, to: folder.appendingPathComponent("Brewer.xcodeproj"))
        let record = folder.appendingPathComponent("xcodebuild-calls.txt")
        let result = try await lanes.run(["run", "xcarchive", "scheme:Brewer", "archive_path:out/Brewer.xcarchive"], in: folder,
                                   extraEnvironment: ["PATH": "\(Self.standIn):/usr/bin:/bin", "XCODEBUILD_RECORD": record.path])
        #expect(result.status == 0, "\(result.output)")
        let call = try String(contentsOf: record, encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(call == ["-project", "\(folder.path)/Brewer.xcodeproj", "-scheme", "Brewer", "-archivePath", "\(folder.path)/out/Brewer.xcarchive",
                         "archive"], "\(call)")
    }

    /// update_project_team writes DEVELOPMENT_TEAM into the named target's configurations only;
    /// fastlane's `path` and `teamid` names are taken.
    @Test func updateProjectTeamSetsTheTeamOfTheNamedTarget() async throws {
        let folder = LanesCommandLine.temporaryDirectory("project-team")
        let project = folder.appendingPathComponent("Brewer.xcodeproj")
        try FileManager.default.copyItem(at: Self.brewerProject, to: project)
        let result = try await lanes.run(["run", "update_project_team", "path:Brewer.xcodeproj", "targets:BrewerWidget", "teamid:NEWTEAM123"], in: folder)
        #expect(result.status == 0, "\(result.output)")
        let text = try String(contentsOf: project.appendingPathComponent("project.pbxproj"), encoding: .utf8)
        let widgetConfigurations = text.components(separatedBy: "DEVELOPMENT_TEAM = NEWTEAM123;").count - 1
        #expect(widgetConfigurations == 4, "the widget's four configurations, no other target's: \(widgetConfigurations)")

        let unknown = try await lanes.run(["run", "update_project_team", "targets:Kettle", "teamid:NEWTEAM123"], in: folder)
        #expect(unknown.status != 0 && unknown.standardError.contains("BrewerWidget"), "the error lists the targets: \(unknown.output)")
    }

    /// ensure_env_vars names every variable that is missing or blank.
    @Test func ensureEnvVarsNamesTheMissingOnes() async throws {
        let folder = LanesCommandLine.temporaryDirectory("ensure-env")
        let result = try await lanes.run(["run", "ensure_env_vars", "env_vars:LANES_T33_SET,LANES_T33_BLANK,LANES_T33_UNSET"], in: folder,
                                   extraEnvironment: ["LANES_T33_SET": "yes", "LANES_T33_BLANK": " "])
        #expect(result.status != 0, "\(result.output)")
        #expect(result.standardError.contains("'LANES_T33_BLANK', 'LANES_T33_UNSET'"), "\(result.standardError)")
        let fine = try await lanes.run(["run", "ensure_env_vars", "env_vars:LANES_T33_SET"], in: folder, extraEnvironment: ["LANES_T33_SET": "yes"])
        #expect(fine.status == 0, "\(fine.output)")
    }

    /// get_ipa_info_plist_value reads the app's own Info.plist inside the .ipa.
    @Test func getIpaInfoPlistValueReadsTheAppsInfoPlist() async throws {
        let folder = LanesCommandLine.temporaryDirectory("ipa-plist")
        let result = try await lanes.run(["run", "get_ipa_info_plist_value", "key:CFBundleVersion", "ipa:\(Self.ipa)", "--json"], in: folder)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput.contains(#""value":"118""#), "\(result.standardOutput)")
    }

    /// copy_artifacts copies files and globs into the target folder, keeping the originals; a named
    /// file that is missing fails only with fail_on_missing.
    @Test func copyArtifactsCopiesFilesAndGlobs() async throws {
        let folder = LanesCommandLine.temporaryDirectory("copy-artifacts")
        try FileManager.default.createDirectory(at: folder.appendingPathComponent("build/logs"), withIntermediateDirectories: true)
        for name in ["build/Brewer.ipa", "build/logs/archive.log", "build/logs/export.log", "build/notes.txt"] {
            try name.write(to: folder.appendingPathComponent(name), atomically: true, encoding: .utf8)
        }
        let result = try await lanes.run(["run", "copy_artifacts", "artifacts:build/Brewer.ipa,build/logs/*.log", "target_path:artifacts"], in: folder)
        #expect(result.status == 0, "\(result.output)")
        let copied = try FileManager.default.contentsOfDirectory(atPath: folder.appendingPathComponent("artifacts").path).sorted()
        #expect(copied == ["Brewer.ipa", "archive.log", "export.log"], "\(copied)")
        #expect(FileManager.default.fileExists(atPath: folder.appendingPathComponent("build/Brewer.ipa").path))
        let missing = try await lanes.run(["run", "copy_artifacts", "artifacts:build/Kettle.ipa", "fail_on_missing:true"], in: folder)
        #expect(missing.status != 0 && missing.standardError.contains("build/Kettle.ipa"), "\(missing.output)")
    }

    /// prompt on CI answers ci_input, and without one fails at once instead of waiting.
    @Test func promptOnCIAnswersCIInputOrFails() async throws {
        let folder = LanesCommandLine.temporaryDirectory("prompt-ci")
        let answered = try await lanes.run(["run", "prompt", "text:Release notes?", "ci_input:Bug fixes", "--json"], in: folder, extraEnvironment: ["CI": "true"])
        #expect(answered.status == 0, "\(answered.output)")
        #expect(answered.standardOutput.contains(#""value":"Bug fixes""#), "\(answered.standardOutput)")
        let unanswered = try await lanes.run(["run", "prompt", "text:Release notes?"], in: folder, extraEnvironment: ["CI": "true"])
        #expect(unanswered.status != 0 && unanswered.standardError.contains("ci_input"), "\(unanswered.output)")
    }
}
