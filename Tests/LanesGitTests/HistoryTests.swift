import Testing
@testable import LanesGit

@Suite(.timeLimit(.minutes(3))) struct HistoryTests {
    /// main: a - b - c - M (merge of feature: d - e branched at b) - f
    private func mergedHistory(_ fixture: GitFixture) async throws -> String {
        let repo = try await fixture.makeRepository()
        try await fixture.commit("a: start", in: repo, date: "2024-01-01T10:00:00+00:00")
        try await fixture.commit("b: models", in: repo, date: "2024-01-02T10:00:00+00:00")
        try await fixture.git(["checkout", "-q", "-b", "feature"], in: repo)
        try await fixture.commit("d: feature work", in: repo, date: "2024-01-03T10:00:00+00:00")
        try await fixture.commit("e: feature tests", in: repo, date: "2024-01-04T10:00:00+00:00")
        try await fixture.git(["checkout", "-q", "main"], in: repo)
        try await fixture.commit("c: fix on main", in: repo, date: "2024-01-05T10:00:00+00:00")
        try await fixture.git(["merge", "-q", "--no-ff", "-m", "Merge branch 'feature'", "feature"], in: repo,
                        environment: ["GIT_AUTHOR_DATE": "2024-01-06T10:00:00+00:00",
                                      "GIT_COMMITTER_DATE": "2024-01-06T10:00:00+00:00"])
        try await fixture.commit("f: release notes", in: repo, date: "2024-01-07T10:00:00+00:00")
        return repo
    }

    @Test func commitCountMatchesGitRevListAcrossMerges() async throws {
        let fixture = try GitFixture()
        let repo = try await mergedHistory(fixture)
        let repository = try Repository(discoveringFrom: repo)

        #expect(try repository.commitCount() == 7)
        #expect(try repository.commitCount() == Int(try await fixture.git(["rev-list", "--count", "HEAD"], in: repo)))
        #expect(try repository.commitCount(of: "feature") == 4)
    }

    /// The counter reads packed commits itself and everything else through libgit2: a history
    /// spread over two packs and loose objects, with an octopus merge and a branch HEAD does
    /// not reach, must still count exactly as git does.
    @Test func commitCountAgreesWithGitAcrossPacksAndLooseObjects() async throws {
        let fixture = try GitFixture()
        let repo = try await mergedHistory(fixture)
        try await fixture.git(["repack", "-a", "-d", "-q"], in: repo)
        try await fixture.git(["checkout", "-q", "-b", "unmerged"], in: repo)
        try await fixture.commit("never merged", in: repo)
        try await fixture.git(["checkout", "-q", "main"], in: repo)
        for name in ["left", "right"] {
            try await fixture.git(["checkout", "-q", "-b", name, "main"], in: repo)
            try await fixture.commit("\(name) work", in: repo)
        }
        try await fixture.git(["checkout", "-q", "main"], in: repo)
        try await fixture.commit("main work", in: repo)
        try await fixture.git(["merge", "-q", "-m", "Octopus", "left", "right"], in: repo)
        try await fixture.git(["repack", "-d", "-q"], in: repo)  // a second pack with the new objects
        try await fixture.commit("loose on top", in: repo)
        let repository = try Repository(discoveringFrom: repo)

        for revision in ["HEAD", "HEAD~1", "unmerged", "feature", "left"] {
            let expected = Int(try await fixture.git(["rev-list", "--count", revision], in: repo))
            #expect(try repository.commitCount(of: revision) == expected, "counting from \(revision)")
            let start = try repository.resolveCommit(revision)
            let withoutTables = try CommitCounter(repository: repository, tableLimit: 0).count(from: start)
            #expect(withoutTables == expected, "counting from \(revision) without parent tables")
        }
    }

    @Test func changelogBetweenRefsListsSubjectsAuthorsAndDates() async throws {
        let fixture = try GitFixture()
        let repo = try await mergedHistory(fixture)
        let repository = try Repository(discoveringFrom: repo)

        let all = try repository.changelog(from: "HEAD~2", to: "HEAD")
        let expected = try await fixture.git(["log", "--format=%s", "HEAD~2..HEAD"], in: repo).split(separator: "\n").map(String.init)
        #expect(all.map(\.subject) == expected)
        #expect(all.first?.subject == "f: release notes")
        #expect(all.first?.authorName == "Fixture Author")
        #expect(all.first?.authorEmail == "author@example.com")
        #expect(all.first?.authorDate.iso8601 == "2024-01-07T10:00:00+00:00")
        #expect(all.first?.authorDate.iso8601 == (try await fixture.git(["log", "-1", "--format=%aI"], in: repo)))
    }

    @Test(arguments: [
        (MergeFilter.include, ["f: release notes", "Merge branch 'feature'", "c: fix on main", "e: feature tests", "d: feature work"]),
        (MergeFilter.exclude, ["f: release notes", "c: fix on main", "e: feature tests", "d: feature work"]),
        (MergeFilter.only, ["Merge branch 'feature'"]),
    ])
    func changelogFiltersMerges(filter: MergeFilter, subjects: [String]) async throws {
        let fixture = try GitFixture()
        let repo = try await mergedHistory(fixture)
        try await fixture.git(["tag", "v1.0", "HEAD~3"], in: repo)  // at b (first parents: f, M, c, b)
        let repository = try Repository(discoveringFrom: repo)

        let (tag, commits) = try repository.changelogSinceLastTag(merges: filter)

        #expect(tag == "v1.0")
        #expect(Set(commits.map(\.subject)) == Set(subjects))
        #expect(commits.first?.subject == subjects.first)
    }

    @Test func changelogWithoutTagsCoversTheWholeHistory() async throws {
        let fixture = try GitFixture()
        let repo = try await mergedHistory(fixture)
        let (tag, commits) = try Repository(discoveringFrom: repo).changelogSinceLastTag(limit: 3)
        #expect(tag == nil)
        #expect(commits.count == 3)
    }

    @Test func aShallowCloneIsReportedAndRefusesToCount() async throws {
        let fixture = try GitFixture()
        let origin = try await mergedHistory(fixture)
        try await fixture.git(["tag", "v0.9", "HEAD~1"], in: origin)
        try await fixture.git(["clone", "-q", "--depth", "2", "--no-single-branch", "file://\(origin)", fixture.path("shallow")],
                        in: fixture.root.path)
        let repository = try Repository(discoveringFrom: fixture.path("shallow"))

        #expect(repository.isShallow)
        let error = #expect(throws: GitError.self) { try repository.commitCount() }
        #expect(error?.kind == .shallowRepository)
        #expect(error?.description.contains("shallow clone") == true)
        #expect(error?.description.contains("git fetch --unshallow") == true)

        let info = try repository.info()
        #expect(info.shallow)
        #expect(info.commitCount == nil)
        #expect(info.branch == "main")
        #expect(info.clean)
        #expect(info.lastTag == "v0.9")
        #expect(try repository.changelog(from: "HEAD~1").map(\.subject) == ["f: release notes"])
    }
}
