import Testing
@testable import LanesGit

@Suite struct RepositoryTests {
    @Test func discoversTheRepositoryFromASubdirectory() throws {
        let fixture = try GitFixture()
        let repo = try fixture.makeRepository()
        let head = try fixture.commit("first", file: "App/Sources/main.swift", in: repo)

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

    @Test func detachedHeadHasNoBranch() throws {
        let fixture = try GitFixture()
        let repo = try fixture.makeRepository()
        let first = try fixture.commit("first", in: repo)
        try fixture.commit("second", in: repo)
        try fixture.git(["checkout", "-q", "--detach", first], in: repo)

        let repository = try Repository(discoveringFrom: repo)
        let head = try repository.head()

        #expect(head == .detached(commit: try #require(ObjectID(hex: first))))
        #expect(head.branchName == nil)
        #expect(try repository.info().branch == nil)
    }

    @Test func aFreshRepositoryIsUnbornOnItsBranch() throws {
        let fixture = try GitFixture()
        let repo = try fixture.makeRepository()
        let repository = try Repository(discoveringFrom: repo)
        #expect(try repository.head() == .unborn(branch: "main"))
        let info = try repository.info()
        #expect(info.commit == nil && info.commitCount == nil && info.lastTag == nil)
    }

    @Test func branchNamesWithSlashesAreShortNames() throws {
        let fixture = try GitFixture()
        let repo = try fixture.makeRepository()
        try fixture.commit("first", in: repo)
        try fixture.git(["checkout", "-q", "-b", "feature/login"], in: repo)
        #expect(try Repository(discoveringFrom: repo).head().branchName == "feature/login")
    }

    @Test func remoteURLIsReadAndRedactedInInfo() throws {
        let fixture = try GitFixture()
        let repo = try fixture.makeRepository()
        try fixture.commit("first", in: repo)
        try fixture.git(["remote", "add", "origin", "https://ci:tok3n-value@example.com/team/app.git"], in: repo)

        let repository = try Repository(discoveringFrom: repo)

        #expect(try repository.remoteURL() == "https://ci:tok3n-value@example.com/team/app.git")
        #expect(try repository.remoteURL(named: "upstream") == nil)
        #expect(try repository.info().remoteURL == "https://********@example.com/team/app.git")
    }

    @Test func resolvesRevisionsAndReportsUnknownOnes() throws {
        let fixture = try GitFixture()
        let repo = try fixture.makeRepository()
        let first = try fixture.commit("first", in: repo)
        try fixture.commit("second", in: repo)
        let repository = try Repository(discoveringFrom: repo)

        #expect(try repository.resolveCommit("HEAD~1").hex == first)
        let error = #expect(throws: GitError.self) { try repository.resolveCommit("no-such-branch") }
        #expect(error?.kind == .notFound)
        #expect(error?.description.contains("no-such-branch") == true)
    }
}
