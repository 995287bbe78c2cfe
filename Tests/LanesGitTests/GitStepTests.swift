import Foundation
import Synchronization
import Testing
@testable import LanesRuntime
@testable import LanesGit

/// The git steps run against real repositories, as `lanes run` and a Lanefile would run them.
@Suite(.timeLimit(.minutes(3))) struct GitStepTests {
    /// A step context for `directory`, capturing output lines.
    final class Harness: Sendable {
        /// Output lines the step wrote.
        final class Lines: Sendable {
            let lines = Mutex<[String]>([])
        }

        let context: StepContext
        let redactor = Redactor()
        private let captured = Lines()

        init(directory: String, variables: [String: String] = [:]) {
            let captured = captured
            context = StepContext(environment: Environment(variables: variables, redactor: redactor),
                                  projectDirectory: directory, stateDirectory: directory + "/.lanes",
                                  log: StepLog(redactor: redactor) { line in captured.lines.withLock { $0.append(line) } },
                                  cleanups: CleanupStack(),
                                  processes: SubprocessRunner(baseEnvironment: ["PATH": "/usr/bin:/bin"]))
        }

        var lines: [String] { captured.lines.withLock { $0 } }

        func step<S: Step>(_ type: S.Type, _ words: [String]) throws -> S {
            try S.resolve(StepArguments(text: try OptionValues.parse(words)), environment: context.environment)
        }

        func options(_ words: [String]) throws -> OptionValues {
            OptionValues(given: try OptionValues.parse(words), environment: context.environment)
        }
    }

    @Test func numberOfCommitsCountsFromASubdirectoryAndRefusesShallowClones() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        for index in 1...5 { try await fixture.commit("commit \(index)", file: "App/file\(index).txt", in: repo) }

        let count = try await NumberOfCommits.resolve([:]).run(in: Harness(directory: repo + "/App").context)
        #expect(count == 5)

        try await fixture.git(["clone", "-q", "--depth", "1", "file://\(repo)", fixture.path("shallow")], in: fixture.root.path)
        let error = await #expect(throws: GitError.self) {
            try await NumberOfCommits.resolve([:]).run(in: Harness(directory: fixture.path("shallow")).context)
        }
        #expect(error?.lanesKind == .environment)
        #expect(error?.hint?.contains("fetch-depth: 0") == true)
    }

    @Test func ensureGitStatusCleanListsTheDirtyFiles() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("plist", file: "App/Info.plist", in: repo)
        try fixture.write("App/Info.plist", "bumped\n", in: repo)
        try fixture.write("notes.txt", in: repo)
        let harness = Harness(directory: repo)

        let error = await #expect(throws: LanesError.self) { try await EnsureGitStatusClean.resolve([:]).run(in: harness.context) }
        #expect(error?.kind == .laneFailure)
        #expect(error?.message.contains(" M App/Info.plist") == true)
        #expect(error?.message.contains("?? notes.txt") == true)
        #expect(error?.message.contains("2 changed paths") == true)

        let lenient = try harness.step(EnsureGitStatusClean.self, ["ignore_files:App/Info.plist,notes.txt"])
        try await lenient.run(in: harness.context)
        #expect(harness.lines.last == "git status is clean")
    }

    /// fastlane's git_commit passes `path` to `git commit` as pathspecs: `.` and a folder commit the
    /// changes of the tracked files they cover (a deletion too); an untracked file stays untracked.
    @Test func gitCommitTakesFoldersAndDotAsPathspecs() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("plist", file: "App/Info.plist", in: repo)
        try await fixture.commit("strings", file: "App/Localizable.strings", in: repo)
        try await fixture.commit("readme", file: "README.md", in: repo)
        try fixture.write("App/Info.plist", "bumped\n", in: repo)
        try FileManager.default.removeItem(atPath: repo + "/App/Localizable.strings")
        try fixture.write("README.md", "edited\n", in: repo)
        try fixture.write("App/Scratch.swift", in: repo)
        let harness = Harness(directory: repo)

        _ = try await harness.step(GitCommit.self, ["path:App", "message:App only"]).run(in: harness.context)
        #expect(try await fixture.git(["show", "--name-status", "--format=", "HEAD"], in: repo) == "M\tApp/Info.plist\nD\tApp/Localizable.strings")
        #expect(try await fixture.git(["status", "--porcelain"], in: repo) == " M README.md\n?? App/Scratch.swift")

        _ = try await harness.step(GitCommit.self, ["path:.", "message:Everything tracked"]).run(in: harness.context)
        #expect(try await fixture.git(["show", "--name-status", "--format=", "HEAD"], in: repo) == "M\tREADME.md")
        #expect(try await fixture.git(["status", "--porcelain"], in: repo) == "?? App/Scratch.swift")
    }

    /// `path: ["./*"]` (MapGL-iOS's rlz): git reads `./*` as `*`, every tracked change; it found
    /// nothing to commit when `./` reached libgit2's pathspec as written.
    @Test func gitCommitReadsDotSlashAsGitDoes() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("podspec", file: "MapGL.podspec", in: repo)
        try await fixture.commit("plist", file: "App/Info.plist", in: repo)
        try fixture.write("MapGL.podspec", "s.version = '1.2.3'\n", in: repo)
        try fixture.write("App/Info.plist", "bumped\n", in: repo)
        let harness = Harness(directory: repo)

        _ = try await harness.step(GitCommit.self, ["path:./App/./Info.plist", "message:One file"]).run(in: harness.context)
        #expect(try await fixture.git(["show", "--name-status", "--format=", "HEAD"], in: repo) == "M\tApp/Info.plist")
        _ = try await harness.step(GitCommit.self, ["path:./*", "message:Bump up version to 1.2.3"]).run(in: harness.context)
        #expect(try await fixture.git(["show", "--name-status", "--format=", "HEAD"], in: repo) == "M\tMapGL.podspec")
        #expect(try await fixture.git(["status", "--porcelain"], in: repo) == "")
    }

    @Test func resetGitRepoTakesPathsRelativeToTheProjectAndKeepsPods() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try fixture.write(".gitignore", "Pods/\n", in: repo)
        try await fixture.git(["add", ".gitignore"], in: repo)
        try await fixture.commit("project", file: "ios/Brewer.xcodeproj/project.pbxproj", contents: "original\n", in: repo)
        try fixture.write("ios/Brewer.xcodeproj/project.pbxproj", "edited\n", in: repo)
        try fixture.write("ios/Pods/Manifest.lock", in: repo)
        let harness = Harness(directory: repo + "/ios")

        let step = try harness.step(ResetGitRepo.self, ["force:true", "files:Brewer.xcodeproj/project.pbxproj"])
        let result = try await step.run(in: harness.context)

        #expect(result.restored == ["ios/Brewer.xcodeproj/project.pbxproj"])
        #expect(try fixture.read("ios/Brewer.xcodeproj/project.pbxproj", in: repo) == "original\n")
        #expect(fixture.exists("ios/Pods/Manifest.lock", in: repo))
        #expect(harness.lines == ["restored ios/Brewer.xcodeproj/project.pbxproj"])
    }

    /// A clean checkout that a lane then dirties the way a build does: a bumped pbxproj, a new
    /// `.env`, an ignored `Pods/` and `build/`, and `artifacts/` it means to keep.
    private func dirtiedByALane(_ fixture: GitFixture) async throws -> String {
        let repo = try await fixture.makeRepository()
        try fixture.write(".gitignore", "Pods/\nbuild/\nartifacts/\n", in: repo)
        try await fixture.git(["add", ".gitignore"], in: repo)
        try await fixture.commit("project", file: "Brewer.xcodeproj/project.pbxproj", contents: "original\n", in: repo)
        return repo
    }

    private func dirty(_ fixture: GitFixture, _ repo: String) throws {
        try fixture.write("Brewer.xcodeproj/project.pbxproj", "bumped\n", in: repo)
        try fixture.write(".env", "TOKEN=x\n", in: repo)
        try fixture.write("Pods/Manifest.lock", in: repo)
        try fixture.write("build/Brewer.ipa", in: repo)
        try fixture.write("artifacts/Brewer.dSYM.zip", in: repo)
    }

    @Test func resetGitRepoWithFastlanesDefaultsLeavesAFreshCloneExceptWhatIsExcluded() async throws {
        let fixture = try GitFixture()
        let repo = try await dirtiedByALane(fixture)
        let harness = Harness(directory: repo)
        try await harness.step(EnsureGitStatusClean.self, []).run(in: harness.context)
        try dirty(fixture, repo)

        let result = try await harness.step(ResetGitRepo.self, ["exclude:artifacts"]).run(in: harness.context)

        // fastlane: git reset --hard HEAD; git clean -qfdx -e artifacts
        #expect(result.restored == ["Brewer.xcodeproj/project.pbxproj"])
        #expect(result.removed == [".env", "Pods/", "build/"])
        #expect(try fixture.read("Brewer.xcodeproj/project.pbxproj", in: repo) == "original\n")
        #expect(!fixture.exists(".env", in: repo) && !fixture.exists("Pods", in: repo) && !fixture.exists("build", in: repo))
        #expect(fixture.exists("artifacts/Brewer.dSYM.zip", in: repo))
        #expect(try await fixture.git(["status", "--porcelain", "--ignored"], in: repo) == "!! artifacts/")
    }

    @Test func resetGitRepoKeepsIgnoredFilesWhenToldToHonourGitignoreAndCleansNothingWithSkipClean() async throws {
        let fixture = try GitFixture()
        let repo = try await dirtiedByALane(fixture)
        try dirty(fixture, repo)
        try fixture.write("Scratch/notes.txt", in: repo)
        try fixture.write("Scratch/build/cache.bin", in: repo)  // ignored inside an untracked folder
        let harness = Harness(directory: repo, variables: ["FL_RESET_GIT_FORCE": "true"])

        let kept = try await harness.step(ResetGitRepo.self, ["disregard_gitignore:false"]).run(in: harness.context)
        #expect(kept.removed == [".env", "Scratch/notes.txt"])
        #expect(fixture.exists("Pods/Manifest.lock", in: repo) && fixture.exists("build/Brewer.ipa", in: repo))
        #expect(fixture.exists("Scratch/build/cache.bin", in: repo))

        try fixture.write(".env", "TOKEN=x\n", in: repo)
        let skipped = try await harness.step(ResetGitRepo.self, ["skip_clean:true"]).run(in: harness.context)
        #expect(skipped.removed.isEmpty)
        #expect(fixture.exists(".env", in: repo))
    }

    @Test func resetGitRepoRefusesUnlessTheLaneCheckedTheTreeWasCleanOrSaysForce() async throws {
        let fixture = try GitFixture()
        let repo = try await dirtiedByALane(fixture)
        try dirty(fixture, repo)
        let harness = Harness(directory: repo)

        let error = await #expect(throws: LanesError.self) {
            try await harness.step(ResetGitRepo.self, []).run(in: harness.context)
        }
        #expect(error?.message.contains("did not check that the repository was clean") == true)
        #expect(error?.hint?.contains("force: true (FL_RESET_GIT_FORCE)") == true)
        #expect(try fixture.read("Brewer.xcodeproj/project.pbxproj", in: repo) == "bumped\n")
        #expect(fixture.exists(".env", in: repo))
    }

    @Test func tagsAreAddedFoundAndPushed() async throws {
        let fixture = try GitFixture()
        let seed = try await fixture.makeRepository("seed")
        try await fixture.commit("initial", in: seed)
        try await fixture.git(["clone", "-q", "--bare", seed, fixture.path("server.git")], in: fixture.root.path)
        try await fixture.git(["clone", "-q", fixture.path("server.git"), fixture.path("work")], in: fixture.root.path)
        let work = fixture.path("work")
        try await fixture.git(["config", "user.name", "CI"], in: work)
        try await fixture.git(["config", "user.email", "ci@example.com"], in: work)
        let harness = Harness(directory: work, variables: [RemoteCredentials.Variable.token: "tok-never-shown"])

        let tag = try await harness.step(AddGitTag.self, ["tag:v3.1.0", "message:Release 3.1.0"]).run(in: harness.context)
        #expect(tag.isAnnotated)
        #expect(try await LastGitTag.resolve([:]).run(in: harness.context) == "v3.1.0")
        #expect(try await LastGitTag.resolve(["pattern": "build-*"]).run(in: harness.context) == nil)

        let pushed = try await harness.step(PushGitTags.self, []).run(in: harness.context)
        #expect(pushed == ["v3.1.0"])
        #expect(try await fixture.git(["tag", "-l"], in: fixture.path("server.git")) == "v3.1.0")
        #expect(harness.redactor.isSecret("tok-never-shown"))

        let duplicate = await #expect(throws: GitError.self) {
            try await AddGitTag.resolve(["tag": "v3.1.0"]).run(in: harness.context)
        }
        #expect(duplicate?.lanesKind == .configuration)
    }

    @Test func gitBranchFallsBackToTheCIVariableWhenDetached() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("one", in: repo)
        #expect(try await GitBranch.resolve([:]).run(in: Harness(directory: repo).context) == "main")

        try await fixture.git(["checkout", "-q", "--detach"], in: repo)
        #expect(try await GitBranch.resolve([:]).run(in: Harness(directory: repo).context) == nil)
        let ci = Harness(directory: repo, variables: ["GIT_BRANCH": "origin/release/2.0"])
        #expect(try await GitBranch.resolve([:]).run(in: ci.context) == "release/2.0")
    }

    @Test func changelogStepRendersSubjectsAndChecksItsRange() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("Initial", in: repo, date: "2024-05-01T09:00:00+02:00")
        try await fixture.git(["tag", "v1"], in: repo)
        try await fixture.commit("Add login", in: repo, date: "2024-05-02T09:00:00+02:00")
        try await fixture.commit("Fix crash", in: repo, date: "2024-05-03T09:00:00+02:00")
        let harness = Harness(directory: repo)

        let changelog = try await ChangelogFromGitCommits.resolve([:]).run(in: harness.context)
        #expect(changelog.from == "v1")
        #expect(changelog.text == "- Fix crash (Fixture Author, 2024-05-03)\n- Add login (Fixture Author, 2024-05-02)")

        let ranged = try await harness.step(ChangelogFromGitCommits.self, ["between:HEAD~1,HEAD"]).run(in: harness.context)
        #expect(ranged.commits.map(\.subject) == ["Fix crash"])
        await #expect(throws: LanesError.self) {
            try await harness.step(ChangelogFromGitCommits.self, ["between:v1"]).run(in: harness.context)
        }
    }
}
