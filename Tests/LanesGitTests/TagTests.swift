import Testing
@testable import LanesGit

@Suite(.timeLimit(.minutes(3))) struct TagTests {
    @Test func lastTagMatchesGitDescribeWithLightweightAndAnnotatedTags() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("one", in: repo, date: "2024-01-01T10:00:00+00:00")
        try await fixture.git(["tag", "-a", "v1.0", "-m", "first release"], in: repo)
        try await fixture.commit("two", in: repo, date: "2024-01-02T10:00:00+00:00")
        try await fixture.git(["tag", "build-17"], in: repo)
        try await fixture.commit("three", in: repo, date: "2024-01-03T10:00:00+00:00")
        let repository = try Repository(discoveringFrom: repo)

        let expected = try await fixture.git(["describe", "--tags", "--abbrev=0"], in: repo)
        #expect(expected == "build-17")
        #expect(try repository.lastTag() == expected)
        #expect(try repository.lastTag(matching: "v*") == "v1.0")
        #expect(try repository.lastTag(reachableFrom: "HEAD~2") == "v1.0")
        #expect(try repository.lastTag(matching: "release-*") == nil)
    }

    @Test func noTagsMeansNil() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("one", in: repo)
        #expect(try Repository(discoveringFrom: repo).lastTag() == nil)
    }

    @Test func tagsOnOtherBranchesAreNotReachable() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("one", in: repo)
        try await fixture.git(["tag", "v1"], in: repo)
        try await fixture.git(["checkout", "-q", "-b", "side"], in: repo)
        try await fixture.commit("side work", in: repo)
        try await fixture.git(["tag", "v2-side"], in: repo)
        try await fixture.git(["checkout", "-q", "main"], in: repo)
        try await fixture.commit("two", in: repo)
        #expect(try Repository(discoveringFrom: repo).lastTag() == "v1")
    }

    @Test func createsAnnotatedAndLightweightTagsThatGitSees() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        let first = try await fixture.commit("one", in: repo)
        let second = try await fixture.commit("two", in: repo)
        let repository = try Repository(discoveringFrom: repo)

        let annotated = try repository.createTag("v2.0.0", message: "Release 2.0.0")
        let light = try repository.createTag("builds/41", at: "HEAD~1")

        #expect(annotated == GitTag(name: "v2.0.0", commit: try #require(ObjectID(hex: second)), isAnnotated: true,
                                    message: "Release 2.0.0"))
        #expect(light.isAnnotated == false && light.commit.hex == first)
        #expect(try await fixture.git(["cat-file", "-t", "v2.0.0"], in: repo) == "tag")
        #expect(try await fixture.git(["cat-file", "-t", "builds/41"], in: repo) == "commit")
        #expect(try await fixture.git(["tag", "-l", "--format=%(contents:subject)", "v2.0.0"], in: repo) == "Release 2.0.0")
        #expect(try repository.tags().map(\.name) == ["builds/41", "v2.0.0"])
    }

    @Test func anExistingTagIsRefusedUnlessForced() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("one", in: repo)
        let second = try await fixture.commit("two", in: repo)
        try await fixture.git(["tag", "v1", "HEAD~1"], in: repo)
        let repository = try Repository(discoveringFrom: repo)

        let error = #expect(throws: GitError.self) { try repository.createTag("v1") }
        #expect(error?.kind == .alreadyExists)
        #expect(try repository.createTag("v1", force: true).commit.hex == second)
    }

    @Test(arguments: ["has space", "double..dot", "ends.lock", "colon:no", ""])
    func invalidTagNamesAreRejected(name: String) async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("one", in: repo)
        let error = #expect(throws: GitError.self) { try Repository(discoveringFrom: repo).createTag(name) }
        #expect(error?.kind == .invalidArgument)
    }
}
