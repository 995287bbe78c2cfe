import Foundation
import LanesPlatform
import LanesTestSupport
import Testing

/// `lanes run sync_code_signing` stopped while it fetches the storage (from a git server that never
/// answers), with the ssh key given as text and so written into the private folder: Ctrl-C removes
/// the folder before lanes exits; kill -9 leaves it, private, and the next run removes it.
@Suite("sync_code_signing interrupted", .timeLimit(.minutes(10)), .tags(.live), .serialized)
struct MatchInterruptTests {
    let lanes = LanesCommandLine()
    /// A throw-away key: only its presence in files and output is checked.
    static let sshKey = "-----BEGIN OPENSSH PRIVATE KEY-----\nb3BlbnNzaC1rZXktdjEAAAAAlanesmatchinterrupttestkey0123456789\n-----END OPENSSH PRIVATE KEY-----\n"

    /// A listener on 127.0.0.1 that accepts and never answers, ended by its pid.
    struct SilentServer {
        let pid: Int32
        let port: String

        init(folder: String) async throws {
            let portFile = folder + "/port"
            let script = """
                import os, socket, sys, time
                s = socket.socket(); s.bind(("127.0.0.1", 0)); s.listen(16); s.settimeout(1)
                open(sys.argv[1] + ".tmp", "w").write(str(s.getsockname()[1])); os.rename(sys.argv[1] + ".tmp", sys.argv[1])
                held, end = [], time.time() + 180
                while time.time() < end:
                    try: held.append(s.accept()[0])
                    except socket.timeout: pass
                """
            pid = try ChildProcess(["python3", "-c", script, portFile]).start()
            let deadline = Date().addingTimeInterval(60)
            while !FileManager.default.fileExists(atPath: portFile), Date() < deadline { try? await Task.sleep(for: .seconds(0.02)) }
            port = (try? String(contentsOfFile: portFile, encoding: .utf8)) ?? ""
        }

        func stop() {
            kill(pid, SIGKILL)
            _ = ChildProcess.wait(pid)
        }
    }

    func start(history: String, project: URL, url: String) throws -> RunningProgram {
        try lanes.start(["run", "sync_code_signing", "type:appstore", "app_identifier:works.sth.brewer", "readonly:true",
                         "git_url:\(url)", "keep_keychain:false"], in: project,
                        extraEnvironment: ["MATCH_PASSWORD": "interrupt test pass", "MATCH_GIT_PRIVATE_KEY": Self.sshKey, "LANES_STATE_DIR": history])
    }

    /// The run's private folder once the key is in it (the fetch has started), or nil after 120 s.
    func waitForScratch(_ state: String) async -> String? {
        let parent = state + "/match"
        let deadline = Date().addingTimeInterval(120)
        while Date() < deadline {
            for name in (try? FileManager.default.contentsOfDirectory(atPath: parent)) ?? []
            where FileManager.default.fileExists(atPath: "\(parent)/\(name)/ssh-key") {
                return "\(parent)/\(name)"
            }
            try? await Task.sleep(for: .seconds(0.02))
        }
        return nil
    }

    /// Waits at most `seconds` for the process to end; kills it after that (and says so).
    func finish(_ running: RunningProgram, within seconds: Double) async -> (ProgramResult, ended: Bool) {
        let pid = running.pid
        let killer = Task {
            guard (try? await Task.sleep(for: .seconds(seconds))) != nil else { return false }
            kill(pid, SIGKILL)
            return true
        }
        let result = await running.finish()
        killer.cancel()
        return (result, !(await killer.value))
    }

    @Test func ctrlCDuringTheFetchRemovesThePrivateFolderAndTheKeyBeforeExiting() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let server = try await SilentServer(folder: temp.path)
        defer { server.stop() }
        // The project's state folder, where steps keep their files (run history goes to LANES_STATE_DIR).
        let state = temp.path + "/.lanes"
        let running = try start(history: temp.path + "/history", project: URL(fileURLWithPath: temp.path), url: "http://127.0.0.1:\(server.port)/certificates.git")
        let scratch = await waitForScratch(state)
        if let scratch {
            // Private while it exists: nobody else can list the folder or read the key.
            #expect(try permissions(scratch) == 0o700)
            #expect(try permissions(scratch + "/ssh-key") == 0o600)
        }
        kill(running.pid, SIGINT)
        let (result, ended) = await finish(running, within: 30)
        #expect(scratch != nil, "the fetch started: \(result.output)")
        #expect(ended, "lanes ended within 30 s of SIGINT: \(result.output)")
        #expect(result.status == 130, "\(result.output)")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: state + "/match")) ?? []).isEmpty, "the private folder is gone")
        #expect(((try? FileManager.default.contentsOfDirectory(atPath: state + "/keychains")) ?? []).isEmpty)
        #expect(files(under: state, containing: "lanesmatchinterrupttestkey").isEmpty)
        #expect(!result.output.contains("lanesmatchinterrupttestkey"))
    }

    @Test func killDashNineLeavesAPrivateFolderThatTheNextRunRemoves() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let server = try await SilentServer(folder: temp.path)
        defer { server.stop() }
        let state = temp.path + "/.lanes"
        let project = URL(fileURLWithPath: temp.path)
        let running = try start(history: temp.path + "/history", project: project, url: "http://127.0.0.1:\(server.port)/certificates.git")
        let scratch = await waitForScratch(state)
        kill(running.pid, SIGKILL)
        let (result, _) = await finish(running, within: 30)
        let leftover = try #require(scratch, "the fetch started: \(result.output)")
        #expect(FileManager.default.fileExists(atPath: leftover + "/ssh-key"), "kill -9 leaves it")
        #expect(try permissions(leftover) == 0o700)
        #expect(try permissions(leftover + "/ssh-key") == 0o600)

        // The next run (here one that fails at once: its storage folder does not exist) sweeps it first.
        let next = try await lanes.run(["run", "sync_code_signing", "type:appstore", "app_identifier:works.sth.brewer", "readonly:true",
                                  "storage_mode:missing-storage"], in: project,
                                 extraEnvironment: ["MATCH_PASSWORD": "interrupt test pass", "LANES_STATE_DIR": temp.path + "/history"])
        #expect(next.status != 0)
        #expect(next.output.contains("left behind by a match run that crashed or was killed"), "\(next.output)")
        #expect(!FileManager.default.fileExists(atPath: leftover))
        #expect(files(under: state, containing: "lanesmatchinterrupttestkey").isEmpty)
    }
}
