import Testing
@testable import LanesGit

@Suite(.timeLimit(.minutes(3))) struct ResetTests {
    /// A project with a tracked pbxproj, an ignored Pods directory and an untracked note.
    private func project(_ fixture: GitFixture) async throws -> String {
        let repo = try await fixture.makeRepository()
        try fixture.write(".gitignore", "Pods/\n", in: repo)
        try await fixture.git(["add", ".gitignore"], in: repo)
        try await fixture.commit("project", file: "Brewer.xcodeproj/project.pbxproj", contents: "original\n", in: repo)
        try await fixture.commit("info", file: "Brewer/Info.plist", contents: "plist\n", in: repo)
        try fixture.write("Brewer.xcodeproj/project.pbxproj", "edited by a lane\n", in: repo)
        try fixture.write("Brewer/Info.plist", "bumped\n", in: repo)
        try fixture.write("Pods/Alamofire/Source.swift", in: repo)
        try fixture.write("notes.txt", in: repo)
        return repo
    }

    @Test func resetRestoresTrackedFilesAndKeepsUntrackedAndIgnored() async throws {
        let fixture = try GitFixture()
        let repo = try await project(fixture)

        let result = try Repository(discoveringFrom: repo).resetToHead()

        #expect(result.restored == ["Brewer.xcodeproj/project.pbxproj", "Brewer/Info.plist"])
        #expect(result.removed.isEmpty)
        #expect(try fixture.read("Brewer.xcodeproj/project.pbxproj", in: repo) == "original\n")
        #expect(try fixture.read("Brewer/Info.plist", in: repo) == "plist\n")
        #expect(fixture.exists("Pods/Alamofire/Source.swift", in: repo))
        #expect(fixture.exists("notes.txt", in: repo))
    }

    @Test func resetOfChosenPathsLeavesOtherEditsAlone() async throws {
        let fixture = try GitFixture()
        let repo = try await project(fixture)
        try await fixture.git(["add", "Brewer.xcodeproj/project.pbxproj"], in: repo)  // staged edits are reset too

        let result = try Repository(discoveringFrom: repo).resetToHead(paths: ["Brewer.xcodeproj/project.pbxproj"])

        #expect(result.restored == ["Brewer.xcodeproj/project.pbxproj"])
        #expect(try fixture.read("Brewer.xcodeproj/project.pbxproj", in: repo) == "original\n")
        #expect(try fixture.read("Brewer/Info.plist", in: repo) == "bumped\n")
        #expect(try await fixture.git(["diff", "--cached", "--name-only"], in: repo) == "")
    }

    @Test func aNewlyStagedFileBecomesUntrackedAndSurvives() async throws {
        let fixture = try GitFixture()
        let repo = try await project(fixture)
        try fixture.write("Generated.swift", in: repo)
        try await fixture.git(["add", "Generated.swift"], in: repo)

        try Repository(discoveringFrom: repo).resetToHead()

        #expect(fixture.exists("Generated.swift", in: repo))
        #expect(try await fixture.git(["status", "--porcelain", "Generated.swift"], in: repo) == "?? Generated.swift")
    }

    @Test func removingUntrackedStillKeepsIgnoredUnlessAsked() async throws {
        let fixture = try GitFixture()
        let repo = try await project(fixture)
        let repository = try Repository(discoveringFrom: repo)

        let first = try repository.resetToHead(removeUntracked: true)
        #expect(first.removed == ["notes.txt"])
        #expect(!fixture.exists("notes.txt", in: repo))
        #expect(fixture.exists("Pods/Alamofire/Source.swift", in: repo))

        let second = try repository.resetToHead(removeUntracked: true, removeIgnored: true)
        #expect(second.removed == ["Pods/"])
        #expect(!fixture.exists("Pods/Alamofire/Source.swift", in: repo))
        #expect(try repository.status().isClean)
    }

    @Test func excludedPatternsSurviveTheCleanAtAnyDepthOrFromTheTop() async throws {
        let fixture = try GitFixture()
        let repo = try await project(fixture)
        try fixture.write("Pods/Keep/Podfile.lock", in: repo)
        try fixture.write("reports/junit.xml", in: repo)
        try fixture.write("reports/raw.log", in: repo)
        try fixture.write("sub/reports/raw.log", in: repo)
        try fixture.write("Vendor/Nested/.git/HEAD", in: repo)  // another repository: git clean -f leaves it

        let result = try Repository(discoveringFrom: repo)
            .resetToHead(removeUntracked: true, removeIgnored: true, keeping: ["Keep", "/reports/*.xml"])

        #expect(fixture.exists("Pods/Keep/Podfile.lock", in: repo))
        #expect(!fixture.exists("Pods/Alamofire", in: repo))
        #expect(fixture.exists("reports/junit.xml", in: repo) && !fixture.exists("reports/raw.log", in: repo))
        #expect(!fixture.exists("sub", in: repo))
        #expect(fixture.exists("Vendor/Nested/.git/HEAD", in: repo))
        #expect(result.removed == ["Pods/Alamofire/", "notes.txt", "reports/raw.log", "sub/"])
    }

    @Test func nonASCIIPathsAreRestored() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("strings", file: "de.lproj/Überschrift ✓.strings", contents: "alt\n", in: repo)
        try fixture.write("de.lproj/Überschrift ✓.strings", "neu\n", in: repo)

        let result = try Repository(discoveringFrom: repo).resetToHead(paths: ["de.lproj/Überschrift ✓.strings"])

        #expect(result.restored == ["de.lproj/Überschrift ✓.strings"])
        #expect(try fixture.read("de.lproj/Überschrift ✓.strings", in: repo) == "alt\n")
    }
}
