import Foundation
import LanesGit
import LanesMatch
import LanesTestSupport
import Synchronization
import Testing

/// A match git storage whose branch moves between the fetch and the push (someone else's
/// `sync_code_signing` pushed meanwhile), against a real bare repository through libgit2.
@Suite("match push race", .timeLimit(.minutes(10)))
struct MatchPushRaceTests {
    /// libgit2's remote, except that before each of the first `races` pushes someone else pushes
    /// a commit to the same branch (through another libgit2 repository).
    final class RacingRemote: MatchGitRemote {
        let inner: LibGit2MatchRemote
        let races: Int
        /// What the other pusher adds: path and contents, given the race's number (1, 2, ...).
        let otherFile: @Sendable (Int) -> (String, [UInt8])
        let scratch: String
        let pushes = Mutex(0)

        init(url: String, scratch: String, races: Int, otherFile: @escaping @Sendable (Int) -> (String, [UInt8])) {
            inner = LibGit2MatchRemote(url: url, credentials: .none)
            self.races = races
            self.otherFile = otherFile
            self.scratch = scratch
        }

        func fetchBranch(_ branch: String, into repository: Repository) throws -> ObjectID? {
            try inner.fetchBranch(branch, into: repository)
        }

        func pushBranch(_ branch: String, from repository: Repository) throws {
            let push = pushes.withLock { count in
                count += 1
                return count
            }
            if push <= races {
                let other = MatchGitStorage(url: inner.url, branch: branch, credentials: .none, repositoryPath: "\(scratch)/other-\(push).git")
                let (_, tip) = try other.read()
                let (path, bytes) = otherFile(push)
                try other.write([path: bytes], parent: tip, message: "someone else \(push)", authorName: "other", authorEmail: "other@example.com")
            }
            try inner.pushBranch(branch, from: repository)
        }
    }

    let temp: TemporaryDirectory
    let remote: String
    let start: ObjectID

    /// A bare repository whose `master` holds one commit with `match_version.txt`.
    init() throws {
        temp = try TemporaryDirectory()
        remote = temp.path + "/certificates.git"
        _ = try Repository.createBare(at: remote)
        let seed = MatchGitStorage(url: remote, branch: "master", credentials: .none, repositoryPath: temp.path + "/seed.git")
        _ = try seed.read()
        start = try seed.write(["match_version.txt": Array("2.220.0".utf8)], parent: nil, message: "seed",
                               authorName: "fastlane", authorEmail: "ci@example.com")
    }

    /// The certificate and key of a new run, as sync_code_signing stores them (bytes stand in for the encrypted files).
    let created: [String: [UInt8]] = ["certs/distribution/CERTNEW001.cer": Array("encrypted cer".utf8),
                                      "certs/distribution/CERTNEW001.p12": Array("encrypted key".utf8)]

    func storage(_ remote: any MatchGitRemote) -> MatchGitStorage {
        MatchGitStorage(url: self.remote, branch: "master", remote: remote, repositoryPath: temp.path + "/ours-\(UUID().uuidString.prefix(6)).git")
    }

    func remoteFiles() throws -> [String: [UInt8]] {
        let reader = MatchGitStorage(url: remote, branch: "master", credentials: .none, repositoryPath: temp.path + "/check-\(UUID().uuidString.prefix(6)).git")
        return try reader.read().files.files
    }

    func log() async throws -> [String] {
        try await Program.tool(["git", "-C", remote, "log", "--format=%s", "master"]).split(separator: "\n").map(String.init)
    }

    @Test func aPushRejectedBecauseTheBranchMovedIsCommittedAgainOnTheNewTipBesideTheOtherCommit() async throws {
        defer { temp.remove() }
        let racing = RacingRemote(url: remote, scratch: temp.path, races: 1) { n in ("profiles/appstore/Other_\(n).mobileprovision", Array("theirs \(n)".utf8)) }
        let storage = storage(racing)
        let (_, tip) = try storage.read()
        #expect(tip == start)
        let commit = try storage.write(created, parent: tip, message: "[fastlane] Updated appstore and platform ios",
                                       authorName: "lanes", authorEmail: "ci@example.com")
        #expect(racing.pushes.withLock { $0 } == 2)
        // Ours sits on top of theirs, nothing of theirs lost.
        #expect(try await log() == ["[fastlane] Updated appstore and platform ios", "someone else 1", "seed"])
        #expect(try await Program.tool(["git", "-C", remote, "rev-parse", "master"]).trimmingCharacters(in: .whitespacesAndNewlines) == commit.hex)
        let files = try remoteFiles()
        for (path, bytes) in created { #expect(files[path] == bytes, "\(path)") }
        #expect(files["profiles/appstore/Other_1.mobileprovision"] == Array("theirs 1".utf8))
        #expect(files["match_version.txt"] == Array("2.220.0".utf8))
    }

    @Test func aBranchThatKeepsMovingStopsAfterThreePushesAndTheFilesAreKeptEncryptedForImport() async throws {
        defer { temp.remove() }
        let racing = RacingRemote(url: remote, scratch: temp.path, races: 10) { n in ("other/\(n).txt", Array("theirs \(n)".utf8)) }
        let storage = storage(racing)
        let (_, tip) = try storage.read()
        #expect {
            try storage.write(created, parent: tip, message: "ours", authorName: "lanes", authorEmail: "ci@example.com")
        } throws: { ($0 as? GitError)?.kind == .pushRejected }
        #expect(racing.pushes.withLock { $0 } == 3)
        #expect(try await !log().contains("ours"))
        #expect(try await log().count == 4, "the seed and the three other pushes")

        // What sync_code_signing then does with the files it could not push.
        let state = temp.path + "/project/.lanes"
        let folder = try MatchUnpushed.keep(created, stateDirectory: state)
        #expect(folder.hasPrefix(state + "/match-unpushed/"))
        var info = stat()
        #expect(stat(folder, &info) == 0 && info.st_mode & 0o777 == 0o700)
        #expect(try MatchFiles.read(folder: folder).files == created, "kept as given (encrypted), laid out like the storage")
        let error = MatchUnpushed.error(folder: folder, type: "appstore", cause: "the remote rejected master")
        #expect(error.description.contains(folder) && error.description.contains("the remote rejected master"))
        #expect(error.hint?.contains("lanes match import --type appstore") == true)
        #expect(error.hint?.contains("--storage-mode \(folder)") == true)
        #expect(error.isEnvironmental)
    }

    @Test func aFileTheOtherPushAddedAtTheSamePathStopsWithoutOverwritingIt() async throws {
        defer { temp.remove() }
        let racing = RacingRemote(url: remote, scratch: temp.path, races: 1) { _ in ("certs/distribution/CERTNEW001.p12", Array("their key".utf8)) }
        let storage = storage(racing)
        let (_, tip) = try storage.read()
        #expect {
            try storage.write(created, parent: tip, message: "ours", authorName: "lanes", authorEmail: "ci@example.com")
        } throws: { error in
            guard case let .storage(message) = error as? MatchError else { return false }
            return message.contains("certs/distribution/CERTNEW001.p12") && message.contains("does not overwrite")
        }
        #expect(racing.pushes.withLock { $0 } == 1)
        #expect(try remoteFiles()["certs/distribution/CERTNEW001.p12"] == Array("their key".utf8))
    }

    @Test func aVersionFileTheOtherPushAlsoAddedIsLeftAsTheyWroteIt() async throws {
        defer { temp.remove() }
        let racing = RacingRemote(url: remote, scratch: temp.path, races: 1) { _ in ("match_version.txt", Array("2.221.0".utf8)) }
        let storage = storage(racing)
        let (_, tip) = try storage.read()
        var ours = created
        ours["match_version.txt"] = Array("lanes 1.0".utf8)
        try storage.write(ours, parent: tip, message: "ours", authorName: "lanes", authorEmail: "ci@example.com", ifAbsent: ["match_version.txt"])
        let files = try remoteFiles()
        #expect(files["match_version.txt"] == Array("2.221.0".utf8))
        for (path, bytes) in created { #expect(files[path] == bytes, "\(path)") }
        #expect(try await log() == ["ours", "someone else 1", "seed"])
    }
}
