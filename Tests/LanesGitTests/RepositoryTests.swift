import Testing
@testable import LanesGit

@Suite(.timeLimit(.minutes(3))) struct RepositoryTests {
    @Test func discoversTheRepositoryFromASubdirectory() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        let head = try await fixture.commit("first", file: "App/Sources/main.swift", in: repo)

        let repository = try Repository(discoveringFrom: fixture.path("repo/App/Sources"))

        #expect(repository.workingDirectory == fixture.path("repo") + "/")
        #expect(try repository.head() == .branch(name: "main", commit: try #require(ObjectID(hex: head))))
        #expect(!repository.isShallow)
    }

    @Test func outsideARepositoryTheErrorSaysSo() throws {
        let fixture = try GitFixture()
        let error = #expect(throws: GitError.self) { try Repository(discoveringFrom: fixture.root.path) }
        #expect(error?.kind == .notARepository)
        #expect(error?.description.contains(fixture.root.path) == true)
    }

    @Test func detachedHeadHasNoBranch() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        let first = try await fixture.commit("first", in: repo)
        try await fixture.commit("second", in: repo)
        try await fixture.git(["checkout", "-q", "--detach", first], in: repo)

        let repository = try Repository(discoveringFrom: repo)
        let head = try repository.head()

        #expect(head == .detached(commit: try #require(ObjectID(hex: first))))
        #expect(head.branchName == nil)
        #expect(try repository.info().branch == nil)
    }

    @Test func aFreshRepositoryIsUnbornOnItsBranch() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        let repository = try Repository(discoveringFrom: repo)
        #expect(try repository.head() == .unborn(branch: "main"))
        let info = try repository.info()
        #expect(info.commit == nil && info.commitCount == nil && info.lastTag == nil)
    }

    @Test func branchNamesWithSlashesAreShortNames() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("first", in: repo)
        try await fixture.git(["checkout", "-q", "-b", "feature/login"], in: repo)
        #expect(try Repository(discoveringFrom: repo).head().branchName == "feature/login")
    }

    @Test func remoteURLIsReadAndRedactedInInfo() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("first", in: repo)
        try await fixture.git(["remote", "add", "origin", "https://ci:tok3n-value@example.com/team/app.git"], in: repo)

        let repository = try Repository(discoveringFrom: repo)

        #expect(try repository.remoteURL() == "https://ci:tok3n-value@example.com/team/app.git")
        #expect(try repository.remoteURL(named: "upstream") == nil)
        #expect(try repository.info().remoteURL == "https://********@example.com/team/app.git")
    }

    @Test func resolvesRevisionsAndReportsUnknownOnes() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        let first = try await fixture.commit("first", in: repo)
        try await fixture.commit("second", in: repo)
        let repository = try Repository(discoveringFrom: repo)

        #expect(try repository.resolveCommit("HEAD~1").hex == first)
        let error = #expect(throws: GitError.self) { try repository.resolveCommit("no-such-branch") }
        #expect(error?.kind == .notFound)
        #expect(error?.description.contains("no-such-branch") == true)
    }
}
