import Foundation
import LanesTestSupport
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

/// `lastTag` against `git describe --tags --abbrev=0` on random histories: branches and merges,
/// committer dates that tie and go backwards, lightweight and annotated tags (two on one commit,
/// told apart by tagger date), the commits packed (read from the pack) and loose (through libgit2).
@Suite(.timeLimit(.minutes(10))) struct LastTagPropertyTests {
    @Test(arguments: [11, 29, 4_242, 90_001] as [UInt64])
    func agreesWithGitDescribe(seed: UInt64) async throws {
        print("LastTagPropertyTests seed \(seed)")
        var random = SplitMix64(seed: seed)
        let fixture = try GitFixture()
        let repo = try await fixture.makeRepository()
        var stream = ""
        var tips: [Int] = []
        var time = 1_700_000_000
        let commits = 160
        for mark in 1...commits {
            // Mostly forwards; sometimes the same second or an earlier one (clock skew), as real histories have.
            switch Int.random(in: 0..<10, using: &random) {
            case 0: break
            case 1: time -= Int.random(in: 1...5_000, using: &random)
            default: time += Int.random(in: 1...3_000, using: &random)
            }
            let message = "commit \(mark)"
            stream += "commit refs/heads/b\(mark)\nmark :\(mark)\ncommitter C <c@example.com> \(time) +0000\ndata \(message.utf8.count)\n\(message)\n"
            if !tips.isEmpty {
                let first = tips[Int.random(in: 0..<tips.count, using: &random)]
                stream += "from :\(first)\n"
                if tips.count > 1, Int.random(in: 0..<5, using: &random) == 0,
                   let other = tips.filter({ $0 != first }).randomElement(using: &random) {
                    stream += "merge :\(other)\n"
                    tips.removeAll { $0 == other }
                }
                tips.removeAll { $0 == first }
            }
            stream += "M 644 inline f\(mark % 7)\ndata \(message.utf8.count)\n\(message)\n\n"
            tips.append(mark)
            if tips.count > 4 { tips.removeFirst() }
            switch Int.random(in: 0..<10, using: &random) {
            case 0, 1, 2:
                stream += "reset refs/tags/\(["v", "build-", "r"].randomElement(using: &random)!)\(mark)\nfrom :\(mark)\n\n"
            case 3, 4:
                let annotations = Int.random(in: 0..<4, using: &random) == 0 ? 2 : 1
                for index in 0..<annotations {
                    let tagTime = time + Int.random(in: -2...2, using: &random) * 100
                    stream += "tag \(index == 0 ? "v" : "x")\(mark).\(index)\nfrom :\(mark)\ntagger T <t@example.com> \(tagTime) +0000\ndata 3\ntag\n"
                }
            default: break
            }
        }
        let input = fixture.path("stream")
        try Data(stream.utf8).write(to: URL(fileURLWithPath: input))
        try await fixture.git(["fast-import", "--quiet", "--import-marks-if-exists=/dev/null", "--export-marks=\(fixture.path("marks"))"], in: repo,
                        environment: [:], input: input)
        let marks = try fixture.read("marks", in: fixture.root.path).split(separator: "\n").map { $0.split(separator: " ")[1] }.map(String.init)
        let probes = (0..<18).map { _ in marks[Int.random(in: 0..<marks.count, using: &random)] } + [marks[marks.count - 1]]

        func compare(_ layout: String) async throws {
            let repository = try Repository(discoveringFrom: repo)
            for commit in probes {
                for pattern in [nil, "v*"] as [String?] {
                    let arguments = ["describe", "--tags", "--abbrev=0"] + (pattern.map { ["--match", $0] } ?? []) + [commit]
                    let expected = try? await fixture.git(arguments, in: repo)
                    let found = try repository.lastTag(reachableFrom: commit, matching: pattern)
                    #expect(found == expected, "seed \(seed), \(layout), \(commit), match \(pattern ?? "-")")
                }
            }
        }
        try await compare("packed")
        // Every object loose: the reader goes through libgit2.
        let packs = repo + "/.git/objects/pack"
        for pack in try FileManager.default.contentsOfDirectory(atPath: packs) where pack.hasSuffix(".pack") {
            try FileManager.default.moveItem(atPath: packs + "/" + pack, toPath: fixture.path(pack))
            try FileManager.default.removeItem(atPath: packs + "/" + pack.replacingOccurrences(of: ".pack", with: ".idx"))
            try await fixture.git(["unpack-objects", "-q"], in: repo, input: fixture.path(pack))
        }
        try await compare("loose")
    }
}
