import Testing
@testable import LanesGit

@Suite(.timeLimit(.minutes(3))) struct StatusTests {
    @Test func reportsStagedUnstagedAndUntrackedButNotIgnored() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try fixture.write(".gitignore", "build/\n*.log\n", in: repo)
        try await fixture.commit("tracked", file: "App/Info.plist", in: repo)
        try await fixture.commit("tracked too", file: "README.md", in: repo)
        try await fixture.git(["add", ".gitignore"], in: repo)
        try await fixture.git(["commit", "-q", "-m", "ignore"], in: repo)

        try fixture.write("App/Info.plist", "changed\n", in: repo)           // unstaged
        try fixture.write("README.md", "staged\n", in: repo)
        try await fixture.git(["add", "README.md"], in: repo)                      // staged
        try fixture.write("Notes/todo.txt", in: repo)                        // untracked directory
        try fixture.write("new.swift", in: repo)                             // untracked file
        try fixture.write("build/out.o", in: repo)                           // ignored
        try fixture.write("debug.log", in: repo)                             // ignored

        let status = try Repository(discoveringFrom: repo).status()

        #expect(!status.isClean)
        #expect(status.changedPaths == ["App/Info.plist", "Notes/", "README.md", "new.swift"])
        #expect(status.staged.map(\.path) == ["README.md"])
        #expect(status.unstaged.map(\.path) == ["App/Info.plist"])
        #expect(status.untracked.map(\.path) == ["Notes/", "new.swift"])
        let porcelain = try await fixture.git(["status", "--porcelain"], in: repo).split(separator: "\n")
            .map { String($0.dropFirst(3)) }.sorted()
        #expect(status.changedPaths == porcelain)

        let everyFile = try Repository(discoveringFrom: repo).status(StatusOptions(listFilesInUntrackedDirectories: true))
        #expect(everyFile.untracked.map(\.path) == ["Notes/todo.txt", "new.swift"])
    }

    @Test func aFreshCheckoutIsClean() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("one", in: repo)
        let info = try Repository(discoveringFrom: repo).info()
        #expect(info.clean)
        #expect(info.changedFiles.isEmpty)
    }

    @Test func nonASCIIPathsComeBackExactly() async throws {
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        try await fixture.commit("unicode", file: "Ressourcen/Grüße.strings", in: repo)
        try fixture.write("Ressourcen/Grüße.strings", "geändert\n", in: repo)
        try fixture.write("日本語/説明 😀.txt", in: repo)

        let status = try Repository(discoveringFrom: repo).status(StatusOptions(listFilesInUntrackedDirectories: true))

        #expect(status.unstaged.map(\.path) == ["Ressourcen/Grüße.strings"])
        #expect(status.untracked.map(\.path) == ["日本語/説明 😀.txt"])
    }

    @Test func submodulesAreCheckedAndCanBeSkipped() async throws {
        let fixture = try GitFixture()
        let library = try await fixture.makeRepository("library")
        try await fixture.commit("library v1", in: library)
        let app = try await fixture.makeRepository("app")
        try await fixture.commit("app", in: app)
        try await fixture.git(["submodule", "add", "-q", library, "Vendor/Library"], in: app)
        try await fixture.git(["commit", "-q", "-m", "add library"], in: app)

        let repository = try Repository(discoveringFrom: app)
        #expect(try repository.status().isClean)

        // Discovery from inside the submodule finds the submodule's own repository.
        let inner = try Repository(discoveringFrom: fixture.path("app/Vendor/Library"))
        #expect(inner.workingDirectory == fixture.path("app/Vendor/Library") + "/")

        try await fixture.commit("local change in submodule", in: fixture.path("app/Vendor/Library"))
        #expect(try repository.status().changedPaths == ["Vendor/Library"])
        #expect(try repository.status(StatusOptions(includeSubmodules: false)).isClean)
    }
}
