import Foundation
import LanesTestSupport
import Testing
@testable import LanesGit

@Suite(.timeLimit(.minutes(3))) struct RemoteTests {
    /// A bare "server" repository and a clone of it, both with one commit on main.
    private func remoteAndClone(_ fixture: GitFixture) async throws -> (bare: String, clone: String) {
        let seed = try await fixture.makeRepository("seed")
        try await fixture.commit("initial", in: seed)
        let bare = fixture.path("server.git")
        try await fixture.git(["clone", "-q", "--bare", seed, bare], in: fixture.root.path)
        let clone = fixture.path("clone")
        try await fixture.git(["clone", "-q", "file://\(bare)", clone], in: fixture.root.path)
        try await fixture.git(["config", "user.name", "CI"], in: clone)
        try await fixture.git(["config", "user.email", "ci@example.com"], in: clone)
        return (bare, clone)
    }

    /// Adds a commit to the bare remote through a second clone; returns its object name.
    private func pushNewCommit(to bare: String, _ fixture: GitFixture) async throws -> String {
        let other = fixture.path("other-\(UUID().uuidString.prefix(6))")
        try await fixture.git(["clone", "-q", bare, other], in: fixture.root.path)
        let commit = try await fixture.commit("teammate's change", in: other)
        try await fixture.git(["push", "-q", "origin", "main"], in: other)
        return commit
    }

    @Test func pollDetectsACommitPushedToTheRemote() async throws {
        let fixture = try GitFixture()
        let (bare, clone) = try await remoteAndClone(fixture)
        let built = try await ObjectID(hex: fixture.git(["rev-parse", "HEAD"], in: clone))
        let poller = RemotePoller(repositoryPath: clone, branch: "main")

        let quiet = try poller.poll(since: built)
        #expect(!quiet.moved)

        let pushed = try await pushNewCommit(to: bare, fixture)
        let busy = try poller.poll(since: built)
        #expect(busy.moved)
        #expect(busy.commit.hex == pushed)
        #expect(busy.previous == built)
        #expect(try await fixture.git(["rev-parse", "origin/main"], in: clone) == pushed)

        // Without a remembered commit, the tracking ref before the fetch is the reference point.
        #expect(try Repository(discoveringFrom: clone).poll().moved == false)
    }

    @Test func pollAcceptsAPathOrURLAndReportsAMissingBranch() async throws {
        let fixture = try GitFixture()
        let (bare, clone) = try await remoteAndClone(fixture)
        let repository = try Repository(discoveringFrom: clone)
        let head = try repository.resolveCommit("HEAD")

        #expect(try repository.poll(remote: "file://\(bare)", branch: "main", since: head).moved == false)
        let pushed = try await pushNewCommit(to: bare, fixture)
        #expect(try repository.poll(remote: bare, branch: "main", since: head).commit.hex == pushed)

        let error = #expect(throws: GitError.self) { try repository.poll(branch: "release/9.9") }
        #expect(error?.kind == .notFound)
        #expect(error?.missingRemoteBranch == "release/9.9")
        #expect(error?.description.contains("release/9.9") == true)
    }

    @Test func pushTagsSendsTagsAndRefusesToMoveExistingOnes() async throws {
        let fixture = try GitFixture()
        let (bare, clone) = try await remoteAndClone(fixture)
        let repository = try Repository(discoveringFrom: clone)
        try repository.createTag("v1.0", message: "Release 1.0")
        try repository.createTag("build-7")

        #expect(try repository.pushTags() == ["build-7", "v1.0"])
        let remoteTags = try await fixture.git(["tag", "-l"], in: bare).split(separator: "\n")
        #expect(remoteTags == ["build-7", "v1.0"])

        try await fixture.commit("next", in: clone)
        try repository.createTag("build-7", force: true)
        let error = #expect(throws: GitError.self) { try repository.pushTags(["build-7"]) }
        #expect(error?.kind == .pushRejected)
        try repository.pushTags(["build-7"], force: true)
        #expect(try await fixture.git(["rev-parse", "build-7"], in: bare) == (try await fixture.git(["rev-parse", "HEAD"], in: clone)))
    }

    @Test func unknownRemoteNamesTheKnownOnes() async throws {
        let fixture = try GitFixture()
        let (_, clone) = try await remoteAndClone(fixture)
        let error = #expect(throws: GitError.self) { try Repository(discoveringFrom: clone).fetch(remote: "upstream") }
        #expect(error?.kind == .notFound)
        #expect(error?.hint?.contains("origin") == true)
    }

    @Test func credentialsInTheURLNeverAppearInErrors() async throws {
        let fixture = try GitFixture()
        let (_, clone) = try await remoteAndClone(fixture)
        let secretURL = "https://deploy:ghp_urlSecret123@127.0.0.1:9/team/app.git"
        try await fixture.git(["remote", "add", "mirror", secretURL], in: clone)
        let repository = try Repository(discoveringFrom: clone)

        let error = #expect(throws: GitError.self) {
            try repository.fetch(remote: "mirror", branch: "main",
                                 credentials: RemoteCredentials(token: "ghp_envSecret456"))
        }
        let text = try #require(error).description
        #expect(!text.contains("ghp_urlSecret123"))
        #expect(!text.contains("ghp_envSecret456"))

        let direct = #expect(throws: GitError.self) { try repository.fetch(remote: secretURL, branch: "main") }
        #expect(direct?.description.contains("ghp_urlSecret123") == false)
    }

    @Test func aRejectedTokenFailsOnceWithoutLeakingIt() async throws {
        let fixture = try GitFixture()
        let (_, clone) = try await remoteAndClone(fixture)
        let server = try await UnauthorizedServer()
        let repository = try Repository(discoveringFrom: clone)
        let token = "glpat-rejectedToken789"

        let error = #expect(throws: GitError.self) {
            try repository.fetch(remote: "http://127.0.0.1:\(server.port)/team/app.git", branch: "main",
                                 credentials: RemoteCredentials.fromEnvironment([RemoteCredentials.Variable.token: token]))
        }
        #expect(error?.kind == .authentication)
        #expect(error?.description.contains(token) == false)
        #expect(server.requestCount() <= 3)

        let missing = #expect(throws: GitError.self) {
            try repository.fetch(remote: "http://127.0.0.1:\(server.port)/team/app.git", branch: "main")
        }
        #expect(missing?.kind == .authentication)
        #expect(missing?.description.contains(RemoteCredentials.Variable.token) == true)
        await server.stop()
    }

    @Test func credentialsDescriptionHidesSecrets() {
        let credentials = RemoteCredentials.fromEnvironment([
            RemoteCredentials.Variable.token: "tok-abc", RemoteCredentials.Variable.sshPassphrase: "pass-xyz",
            RemoteCredentials.Variable.sshKey: "/keys/id_ed25519",
        ])
        let text = "\(credentials) \(String(reflecting: credentials.description))"
        #expect(!text.contains("tok-abc") && !text.contains("pass-xyz"))
        #expect(credentials.redact("token tok-abc and pass-xyz") == "token ******** and ********")
    }
}

/// An HTTP server on 127.0.0.1 that answers every request with 401 and a Basic challenge, as a
/// git host does for a wrong token. Runs as a python3 child process (python itself, found on PATH:
/// a signal reaches it) that `stop()` ends, or that exits by itself after a minute.
final class UnauthorizedServer: Sendable {
    let port: Int
    private let server: RunningProgram
    private let log: URL

    init() async throws {
        log = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-401-\(UUID().uuidString).log")
        let script = """
        import http.server, os, sys, threading
        threading.Timer(60, lambda: os._exit(0)).start()
        log = open(sys.argv[1], "a", buffering=1)
        class Handler(http.server.BaseHTTPRequestHandler):
            def do_GET(self):
                log.write(self.path + "\\n")
                self.send_response(401)
                self.send_header("WWW-Authenticate", 'Basic realm="git"')
                self.send_header("Content-Length", "0")
                self.end_headers()
            do_POST = do_GET
            def log_message(self, *args): pass
        server = http.server.HTTPServer(("127.0.0.1", 0), Handler)
        print(server.server_address[1], flush=True)
        server.serve_forever()
        """
        let server = try Program.start(["python3", "-c", script, log.path])
        _ = await server.waitForOutput("\n")
        guard let port = Int(server.outputSoFar.trimmingCharacters(in: .whitespacesAndNewlines)) else {
            server.send(SIGTERM)
            throw FixtureError(message: "the test HTTP server did not start: \(await server.finish().output)")
        }
        self.port = port
        self.server = server
    }

    func requestCount() -> Int {
        ((try? String(contentsOf: log, encoding: .utf8)) ?? "").split(separator: "\n").count
    }

    func stop() async {
        server.send(SIGTERM)
        _ = await server.finish()
        try? FileManager.default.removeItem(at: log)
    }
}

extension RemoteTests {
    /// git_pull: a teammate's commit arrives in the branch and the working tree; a diverged branch
    /// and a commit that would overwrite local changes stop with nothing changed.
    @Test func pullFastForwardsOrRefuses() async throws {
        let fixture = try GitFixture()
        let (bare, clone) = try await remoteAndClone(fixture)
        let repository = try Repository(at: clone)
        let start = try repository.resolveCommit("HEAD")
        #expect(try repository.pullFastForward() == .upToDate(start))

        let pushed = try await pushNewCommit(to: bare, fixture)
        let pulled = try repository.pullFastForward()
        #expect(pulled == .fastForwarded(from: start, to: try #require(ObjectID(hex: pushed))))
        #expect(try await fixture.git(["status", "--porcelain"], in: clone).isEmpty, "index and working tree follow the branch")
        #expect(try await fixture.git(["log", "-1", "--format=%s"], in: clone) == "teammate's change")

        // Local commit versus a new remote commit: diverged.
        let local = try #require(try await repository.commit(paths: [clone + "/local.txt"].map { path in
            try? fixture.write("local.txt", "mine\n", in: clone)
            return path
        }, message: "local change"))
        _ = try await pushNewCommit(to: bare, fixture)
        #expect(throws: GitError.self) { try repository.pullFastForward() }
        #expect(try repository.resolveCommit("HEAD") == local)
    }

    /// git_commit and push_to_git_remote: libgit2 commits with the configured identity and pushes the
    /// branch; a push that is not a fast-forward is refused unless forced.
    @Test func commitAndPushABranch() async throws {
        let fixture = try GitFixture()
        let (bare, clone) = try await remoteAndClone(fixture)
        let repository = try Repository(at: clone)
        try fixture.write("notes.md", "v2\n", in: clone)
        let commit = try #require(try await repository.commit(paths: [clone + "/notes.md"], message: "Notes for v2"))
        #expect(try await repository.commit(paths: [clone + "/notes.md"], message: "again") == nil, "no change, no commit")
        #expect(try await fixture.git(["log", "-1", "--format=%an <%ae> %s"], in: clone) == "CI <ci@example.com> Notes for v2")
        let pushed = try repository.pushBranch()
        #expect(pushed.local == "main" && pushed.remote == "main")
        #expect(try await fixture.git(["rev-parse", "main"], in: bare) == commit.hex)

        _ = try await pushNewCommit(to: bare, fixture)
        try fixture.write("notes.md", "v3\n", in: clone)
        _ = try await repository.commit(paths: [clone + "/notes.md"], message: "Notes for v3")
        #expect(throws: GitError.self) { try repository.pushBranch() }
        _ = try repository.pushBranch(force: true)
        #expect(try await fixture.git(["log", "-1", "--format=%s", "main"], in: bare) == "Notes for v3")
    }
}
