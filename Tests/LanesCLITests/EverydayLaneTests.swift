import Foundation
import LanesTestSupport
import Testing

/// A Fastfile's everyday release lane, written as a Lanefile, run for real on Linux: xcodebuild is a
/// recording stand-in, git is libgit2 against a local bare remote, GitHub and Slack are a recording
/// server on 127.0.0.1. Every external call is checked, and no secret reaches any of them.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct EverydayLaneTests {
    static let standIn = LanesCommandLine.fixtures.appendingPathComponent("xcodebuild-standin").path
    static let server = LanesCommandLine.fixtures.appendingPathComponent("recording-http-server.py").path
    static let ipa = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesBuildTests/Fixtures/ipa/Brewer-Staging.ipa").path
    static let brewer = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesXcodeTests/Fixtures/Brewer.xcodeproj")
    let lanes = LanesCommandLine()
    /// The folder of the swiftc that compiles the Lanefile, kept on the lane's PATH.
    static let swiftDirectory = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
        .first { FileManager.default.isExecutableFile(atPath: "\($0)/swiftc") }.map(String.init) ?? "/usr/bin"

    static let lanefile = #"""
        import Lanes

        let lanes = Lanefile {
            Lane("release", "Test, bump, build, commit, push, release, announce", secrets: ["GITHUB_TOKEN", "SLACK_URL"], tools: ["xcodebuild"]) {
                try await runTests(scheme: "Brewer", project: "Brewer.xcodeproj", onlyTesting: ["BrewerTests/RecipeTests"],
                                   codeCoverage: true, destination: "platform=macOS")
                let version = try await incrementVersionNumber(xcodeproj: "Brewer.xcodeproj", bumpType: .minor, targets: ["Brewer"])
                try await commitVersionBump(message: "Version \(version)")
                try await buildApp(scheme: "Brewer", outputDirectory: "out", exportMethod: .adHoc, project: "Brewer.xcodeproj",
                                   xcargs: "-skipMacroValidation")
                try await sh("sh", "-c", "echo \"## \(version)\" >> CHANGELOG.md")
                try await gitCommit(path: ["CHANGELOG.md"], message: "Changelog for \(version)")
                try await pushToGitRemote(tags: false)
                let release = try await setGithubRelease(repositoryName: "sth/brewer", tagName: "v\(version)",
                                                         description: "Brewer \(version)", uploadAssets: ["out/Brewer.ipa"],
                                                         serverURL: try env("GITHUB_API_URL"))
                try await withEnvironment(["RELEASE_URL": release.htmlURL]) {
                    try await sh("sh", "-c", "echo released at $RELEASE_URL")
                }
                try await slack(message: "Brewer \(version) released")
                if isCI {
                    try fail("stopping after the release of \(version) on CI")
                }
            }
            OnError { lane, error in
                try await slack(success: false)
            }
        }
        """#

    @Test func aFastfileReleaseLaneRunsOnLinuxWithEveryCallChecked() async throws {
        let work = LanesCommandLine.temporaryDirectory("everyday")
        defer { try? FileManager.default.removeItem(at: work) }
        let project = work.appendingPathComponent("brewer")
        let remote = work.appendingPathComponent("remote.git").path
        try FileManager.default.createDirectory(at: project.appendingPathComponent("Brewer"), withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Self.brewer, to: project.appendingPathComponent("Brewer.xcodeproj"))
        try """
            <?xml version="1.0" encoding="UTF-8"?>
            <plist version="1.0">
            <dict>
            \t<key>CFBundleShortVersionString</key>
            \t<string>1.4.2</string>
            </dict>
            </plist>

            """.write(to: project.appendingPathComponent("Brewer/Info.plist"), atomically: true, encoding: .utf8)
        try Self.lanefile.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        try "# Changes\n".write(to: project.appendingPathComponent("CHANGELOG.md"), atomically: true, encoding: .utf8)
        try ".lanes/\nout/\n".write(to: project.appendingPathComponent(".gitignore"), atomically: true, encoding: .utf8)
        for command in [["git", "init", "-q", "-b", "main"], ["git", "config", "user.name", "CI"], ["git", "config", "user.email", "ci@example.com"],
                        ["git", "add", "-A"], ["git", "commit", "-q", "-m", "Start"], ["git", "init", "-q", "--bare", remote],
                        ["git", "remote", "add", "origin", remote], ["git", "push", "-q", "origin", "main"]] {
            let result = try await Program.streams(command, in: project.path)
            #expect(result.status == 0, "\(command): \(result.error)")
        }

        let record = work.appendingPathComponent("http.jsonl").path
        let portFile = work.appendingPathComponent("port").path
        let server = try Program.start(["python3", Self.server, record, portFile, "120"])
        _ = await eventually(within: .seconds(30)) { FileManager.default.fileExists(atPath: portFile) }
        let port = try String(contentsOfFile: portFile, encoding: .utf8)
        // The server ends by itself after 120 s; a SIGTERM ends it sooner.
        defer { server.send(SIGTERM) }

        let token = "ghp_3verydayT0kenThatMustNotLeak"
        let slackURL = "http://127.0.0.1:\(port)/services/T0/B0/sl4ckW3bh00kS3cret"
        let calls = work.appendingPathComponent("xcodebuild-calls.txt")
        let log = work.appendingPathComponent("test.log")
        try "Test Case '-[BrewerTests.RecipeTests testRatio]' passed (0.002 seconds).\n".write(to: log, atomically: true, encoding: .utf8)
        let result = try await lanes.run(["release"], in: project, extraEnvironment: [
            "PATH": "\(Self.standIn):\(Self.swiftDirectory):/usr/bin:/bin", "XCODEBUILD_RECORD": calls.path, "XCODEBUILD_IPA": Self.ipa, "XCODEBUILD_TEST_LOG": log.path,
            "GITHUB_TOKEN": token, "SLACK_URL": slackURL, "GITHUB_API_URL": "http://127.0.0.1:\(port)", "CI": "true",
        ])

        // fail(...) ends the lane with its message and the Lanefile line that called it.
        #expect(result.status == 1, "\(result.output)")
        let failLine = Self.lanefile.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains("try fail(") }! + 1
        #expect(result.standardError.contains("Lanefile.swift:\(failLine): stopping after the release of 1.5.0 on CI"), "\(result.standardError)")
        #expect(result.standardOutput.contains("released at http://127.0.0.1:\(port)/sth/brewer/releases/7"), "\(result.standardOutput)")

        // xcodebuild: the tests with scan's options, then the archive with xcargs, then the export.
        let made = try String(contentsOf: calls, encoding: .utf8).components(separatedBy: "\n\n").filter { !$0.isEmpty }
            .map { $0.split(separator: "\n").map(String.init) }
        #expect(made.count == 3)
        #expect(made[0].contains("-only-testing:BrewerTests/RecipeTests") && made[0].contains("-enableCodeCoverage")
                && made[0].contains("platform=macOS") && made[0].last == "test", "\(made[0])")
        #expect(made[1].suffix(2) == ["-skipMacroValidation", "archive"], "\(made[1])")
        #expect(made[2].contains("-exportArchive"))

        // git: two commits on top of the start, both in the bare remote.
        let history = try await Program.streams(["git", "--git-dir", remote, "log", "--format=%s", "main"])
        #expect(history.output == "Changelog for 1.5.0\nVersion 1.5.0\nStart\n", "\(history)")
        let bumped = try await Program.streams(["git", "--git-dir", remote, "show", "main~1:Brewer/Info.plist"])
        #expect(bumped.output.contains("<string>1.5.0</string>"))
        let changed = try await Program.streams(["git", "--git-dir", remote, "show", "--name-only", "--format=", "main~1"])
        #expect(changed.output == "Brewer/Info.plist\n")

        // GitHub and Slack: what the server received.
        let requests = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map { line in
            try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
        }
        #expect(requests.map { $0["path"] as? String ?? "" } == [
            "/repos/sth/brewer/releases", "/uploads/repos/sth/brewer/releases/7/assets?name=Brewer.ipa",
            "/services/T0/B0/sl4ckW3bh00kS3cret", "/services/T0/B0/sl4ckW3bh00kS3cret",
        ])
        let release = try #require(try JSONSerialization.jsonObject(with: Data((requests[0]["body"] as? String ?? "").utf8)) as? [String: Any])
        #expect(release["tag_name"] as? String == "v1.5.0" && release["body"] as? String == "Brewer 1.5.0" && release["draft"] as? Bool == false)
        #expect(requests[0]["authorization"] as? String == "Bearer \(token)" && requests[1]["authorization"] as? String == "Bearer \(token)")
        #expect(requests[1]["length"] as? Int == (try FileManager.default.attributesOfItem(atPath: Self.ipa)[.size] as? Int))
        let success = try #require(try JSONSerialization.jsonObject(with: Data((requests[2]["body"] as? String ?? "").utf8)) as? [String: Any])
        #expect(success["text"] as? String == "Brewer 1.5.0 released")
        let failure = requests[3]["body"] as? String ?? ""
        #expect(failure.contains("\"color\":\"danger\"") && failure.contains("Lane release failed") && failure.contains("stopping after the release"),
                "\(failure)")
        #expect(failure.contains("\"title\":\"Lane\",\"value\":\"release\"") && failure.contains("\"title\":\"Duration\""))
        for request in requests {
            let body = request["body"] as? String ?? ""
            #expect(!body.contains(token) && !body.contains("sl4ckW3bh00kS3cret"), "a secret reached \(request["path"] ?? "")")
        }
        #expect(!result.output.contains(token) && !result.output.contains("sl4ckW3bh00kS3cret"))
    }

    static let helpersLanefile = #"""
        import Lanes

        let lanes = Lanefile {
            Lane("helpers", "Xcode choice, scoped variables, a notification that cannot be sent", secrets: ["API_TOKEN"], tools: ["sh"]) {
                try await xcodes(version: "16", applicationsDirectory: "apps")
                try await sh("sh", "-c", "echo developer=$DEVELOPER_DIR")
                let token = try secret("API_TOKEN")
                try await withEnvironment(["TOKEN_FOR_TOOL": token, "PLAIN": "visible", "LANES_SCHEME": "FromScope"]) {
                    try await sh("sh", "-c", "echo token=$TOKEN_FOR_TOOL plain=$PLAIN")
                    let commit = try await lastGitCommit()
                    try echo("commit=\(commit.message)")
                }
                try await sh("sh", "-c", "echo after=${PLAIN:-unset}")
                try await notifyWebhook(message: "nightly")
                try echo("ci=\(isCI)")
            }
            Lane("needsTool", "Declares a tool that is missing", tools: ["sh", "lanes-missing-tool"]) {
                try await sh("sh", "-c", "echo never runs")
            }
        }
        """#

    /// xcodes sets DEVELOPER_DIR for later steps; withEnvironment reaches child processes for its
    /// scope only, with secrets masked; a webhook that cannot be reached does not fail the lane; a
    /// declared tool that is missing stops the lane before its first step.
    @Test func laneAuthoringHelpers() async throws {
        let project = LanesCommandLine.temporaryDirectory("helpers")
        defer { try? FileManager.default.removeItem(at: project) }
        for (name, version) in [("Xcode-15.4.app", "15.4"), ("Xcode-16.1.app", "16.1"), ("Xcode-16.2.app", "16.2")] {
            let contents = project.appendingPathComponent("apps/\(name)/Contents")
            try FileManager.default.createDirectory(at: contents, withIntermediateDirectories: true)
            try """
                <?xml version="1.0" encoding="UTF-8"?>
                <plist version="1.0"><dict><key>CFBundleShortVersionString</key><string>\(version)</string></dict></plist>
                """.write(to: contents.appendingPathComponent("version.plist"), atomically: true, encoding: .utf8)
        }
        try Self.helpersLanefile.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        for command in [["git", "init", "-q"], ["git", "config", "user.name", "CI"], ["git", "config", "user.email", "ci@example.com"],
                        ["git", "add", "-A"], ["git", "commit", "-q", "-m", "Helpers fixture"]] {
            #expect(try await Program.streams(command, in: project.path).status == 0)
        }
        let secretValue = "tok-3Xq9-never-printed"
        let environment = ["PATH": "\(Self.swiftDirectory):/usr/bin:/bin", "API_TOKEN": secretValue, "CI": "", "JENKINS_URL": "",
                           "GITHUB_ACTIONS": "", "GITLAB_CI": "", "BUILDKITE": "", "BUILD_NUMBER": "",
                           "LANES_WEBHOOK_URL": "http://127.0.0.1:1/hook"]
        let result = try await lanes.run(["helpers"], in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput.contains("developer=\(project.path)/apps/Xcode-16.2.app/Contents/Developer"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("token=******** plain=visible"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("commit=Helpers fixture"))
        #expect(result.standardOutput.contains("after=unset"))
        #expect(result.standardOutput.contains("warning: the webhook notification was not sent"), "\(result.standardOutput)")
        #expect(result.standardOutput.contains("ci=false"))
        #expect(!result.output.contains(secretValue))

        let missing = try await lanes.run(["needsTool"], in: project, extraEnvironment: environment)
        #expect(missing.status == 78, "\(missing.output)")
        #expect(missing.standardError.contains("lane needsTool needs the tool lanes-missing-tool, which is not on PATH"))
        #expect(!missing.standardOutput.contains("never runs"))
        let doctor = try await lanes.run(["doctor", "--json"], in: project, extraEnvironment: environment)
        #expect(doctor.standardOutput.contains("lanes-missing-tool is not on PATH (needed by needsTool)"), "\(doctor.output)")
    }

    /// Apple's tools do not exist on Linux: the steps that need them fail at once, naming the tool.
    @Test(arguments: [["notarize", "package:Meow.zip"], ["carthage"], ["swiftlint"]])
    func appleAndThirdPartyToolsFailAtOnceWhenMissing(arguments: [String]) async throws {
        let project = LanesCommandLine.temporaryDirectory("missing-tool")
        defer { try? FileManager.default.removeItem(at: project) }
        let result = try await lanes.run(["run"] + arguments, in: project, extraEnvironment: [
            "PATH": "/nonexistent", "APP_STORE_CONNECT_API_KEY_PATH": "key.p8", "APP_STORE_CONNECT_API_KEY_ID": "K",
            "APP_STORE_CONNECT_API_ISSUER_ID": "I"])
        #expect(result.status == 78, "\(result.output)")
        #expect(result.standardError.contains("is not on PATH"), "\(result.standardError)")
    }

    /// swiftlint refuses a path to lint that does not exist before it runs anything, as fastlane's
    /// option check does (MapGL-iOS's rlz went on past it).
    @Test func swiftlintRefusesAPathThatDoesNotExist() async throws {
        let project = LanesCommandLine.temporaryDirectory("swiftlint-path")
        defer { try? FileManager.default.removeItem(at: project) }
        let result = try await lanes.run(["run", "swiftlint", "path:./Sources", "executable:/bin/true"], in: project)
        #expect(result.status == 78, "\(result.output)")
        #expect(result.standardError.contains("swiftlint: couldn't find path '") && result.standardError.contains("/./Sources'"),
                "\(result.standardError)")
    }

    /// Every type `lanes actions --json` names (option types and results) can be written in a
    /// Lanefile that imports only `Lanes`.
    @Test func everyTypeTheActionsNameIsUsableInALanefile() async throws {
        let project = LanesCommandLine.temporaryDirectory("types")
        defer { try? FileManager.default.removeItem(at: project) }
        let listing = try await lanes.run(["actions", "--json"], in: project)
        let steps = try #require(try JSONSerialization.jsonObject(with: Data(listing.standardOutput.utf8)) as? [[String: Any]])
        var names: Set<String> = []
        for step in steps {
            names.insert(step["result"] as? String ?? "Void")
            for option in step["options"] as? [[String: Any]] ?? [] { names.insert(option["swift_type"] as? String ?? "") }
        }
        let types = names.map { $0.replacing("Optional<", with: "").replacing("Array<", with: "").replacing(">", with: "")
            .replacing("?", with: "").replacing("[", with: "").replacing("]", with: "") }
            .flatMap { $0.components(separatedBy: ": ") }  // a dictionary's key and value types (`[String: String]`)
        let unique = Set(types).subtracting(["", "Void"]).sorted()
        #expect(unique.contains("ExportOptionsSource") && unique.contains("GitTag") && unique.contains("TestRunResult"))
        try """
            import Lanes

            let named: [Any.Type] = [\(unique.map { "\($0).self" }.joined(separator: ", "))]
            let options: ExportOptions = ["signingStyle": "manual"]

            let lanes = Lanefile {
                Lane("types", "Names every step type") {
                    try echo("\\(named.count) types, \\(options.entries.count) option")
                }
            }
            """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let result = try await lanes.run(["types"], in: project, extraEnvironment: ["PATH": "\(Self.swiftDirectory):/usr/bin:/bin"])
        #expect(result.status == 0, "\(result.output)")
        #expect(result.standardOutput.contains("\(unique.count) types, 1 option"))
    }
}
