import Foundation
import LanesCron
import LanesPlatform
import LanesSchedule
import LanesTestSupport
import Testing

/// The `web` fixture project in a temporary folder, with signing material copied into
/// `codesigning/` (the Example's certificate and profile, the signing tests' expired profile), a
/// state folder, and helpers that run real lanes into the real history database.
struct WebProject {
    static let canary = "canary-7f3a91-never-served"

    let directory: URL
    let lanes: LanesCommandLine
    var state: String { directory.appendingPathComponent("state").path }
    var logs: String { state + "/logs" }

    init() throws {
        directory = LanesCommandLine.temporaryDirectory("web")
        let fixture = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesWebTests/Fixtures/web/Lanefile.swift")
        try FileManager.default.copyItem(at: fixture, to: directory.appendingPathComponent("Lanefile.swift"))
        var lanes = LanesCommandLine()
        lanes.environment["CANARY"] = Self.canary
        lanes.environment["LANES_STATE_DIR"] = nil
        self.lanes = lanes
        let signing = directory.appendingPathComponent("codesigning")
        try FileManager.default.createDirectory(at: signing, withIntermediateDirectories: true)
        let root = LanesCommandLine.repositoryRoot
        for (source, name) in [("Example/codesigning/ios_distribution.p12", "ios_distribution.p12"),
                               ("Example/codesigning/Brewer_Staging.mobileprovision", "Brewer_Staging.mobileprovision"),
                               ("Example/codesigning/test-root.crt", "test-root.crt"),
                               ("Tests/LanesSigningTests/Fixtures/profiles/Brewer_Staging_Expired.mobileprovision", "Brewer_Staging_Expired.mobileprovision")] {
            try FileManager.default.copyItem(at: root.appendingPathComponent(source), to: signing.appendingPathComponent(name))
        }
        try FileManager.default.createDirectory(atPath: logs, withIntermediateDirectories: true)
    }

    func store() throws -> HistoryStore { try HistoryStore(directory: state) }

    /// A run the way the daemon makes one: recorded `starting`, the lane started with its output
    /// appended to `logs/ID/output.log` and its events in `logs/ID/events.jsonl`, recorded running;
    /// `wait()` records how it ended and its steps.
    final class LiveRun: Sendable {
        let id: Int64
        let child: HostChild
        let project: WebProject

        init(id: Int64, child: HostChild, project: WebProject) {
            self.id = id
            self.child = child
            self.project = project
        }

        @discardableResult
        func wait() async throws -> RunStatus {
            let code = await child.status().shellStatus
            let status: RunStatus = code == 0 ? .succeeded : .failed
            try project.store().recordEvents(id: id, folder: "\(project.logs)/\(id)")
            try project.store().finish(id: id, status: status, exitStatus: code, ended: SystemCronClock().now())
            return status
        }
    }

    func start(_ lane: String, trigger: RunTrigger = .timer, scheduled: CronInstant? = nil, commit: String? = nil) throws -> LiveRun {
        let store = try store()
        let due = trigger == .manual ? nil : (scheduled ?? SystemCronClock().now())
        let id = try #require(try store.record([NewRun(lane: lane, trigger: trigger, scheduled: due, status: .starting, commit: commit)],
                                               cursors: [:]).first)
        let folder = "\(logs)/\(id)"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
        let logPath = folder + "/output.log"
        var process = ChildProcess([try LanesCommandLine.executable, lane, "--run-folder", folder], environment: lanes.environment,
                                   workingDirectory: directory.path)
        process.standardOutput = .appending(path: logPath, mode: 0o600)
        process.standardError = .standardOutput
        let child = try SystemHost.launch(process)
        try store.markRunning([StartedRun(id: id, processID: child.pid, started: SystemCronClock().now(),
                                          logPath: logPath, folder: folder)])
        return LiveRun(id: id, child: child, project: self)
    }

    /// Runs a lane to its end; returns the run's id.
    @discardableResult
    func run(_ lane: String, trigger: RunTrigger = .timer, scheduled: CronInstant? = nil, commit: String? = nil) async throws -> Int64 {
        let live = try await start(lane, trigger: trigger, scheduled: scheduled, commit: commit)
        try await live.wait()
        return live.id
    }

    /// `lanes ARGUMENTS` in the project.
    func lanes(_ arguments: [String], extraEnvironment: [String: String] = [:]) async throws -> ProgramResult {
        try await lanes.run(arguments, in: directory, extraEnvironment: extraEnvironment)
    }

    /// `lanes serve --http 127.0.0.1:0` on this project; stopped (SIGTERM) by `stop()`.
    final class Server: Sendable {
        let program: RunningProgram
        let port: UInt16
        let token: String

        init(project: WebProject, arguments: [String] = [], extraEnvironment: [String: String] = [:]) async throws {
            var environment = project.lanes.environment.merging(extraEnvironment) { $1 }
            environment["CERTIFICATE_PASSWORD"] = environment["CERTIFICATE_PASSWORD"] ?? "brewer-3des-pass"
            program = try await Program.start([try LanesCommandLine.executable, "serve", "--http", "127.0.0.1:0", "--state-dir", project.state] + arguments,
                                        in: project.directory.path, environment: environment, input: [])
            // `lanes serve: http://127.0.0.1:PORT/ ...` on standard error once it listens.
            _ = await program.waitForOutput("/ (history in")
            guard let match = program.outputSoFar.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\//), let found = UInt16(match.1) else {
                program.send(SIGTERM)
                throw ServerDidNotStart(output: await program.finish().output)
            }
            port = found
            // The token the server keeps in the state folder (0600): what the login address hands a browser.
            let tokenFile = (arguments.firstIndex(of: "--state-dir").map { arguments[$0 + 1] } ?? project.state) + "/web-token"
            guard let token = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                program.send(SIGTERM)
                throw ServerDidNotStart(output: "no token in \(tokenFile): " + (await program.finish().output))
            }
            self.token = token.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        var errorLog: String { program.outputSoFar }

        /// A request as a signed-in browser makes it (the `lanes_token` cookie), unless `signedIn` is false.
        func get(_ target: String, signedIn: Bool = true, headers: [String: String] = [:]) throws -> RawHTTP.Response {
            var headers = headers
            if signedIn { headers["Cookie"] = headers["Cookie"] ?? "lanes_token=\(token)" }
            return try RawHTTP.request(port: port, target, headers: headers)
        }

        /// The address that signs a browser in.
        var loginURL: String { "\(baseURL)/login?token=\(token)" }

        var baseURL: String { "http://127.0.0.1:\(port)" }

        /// SIGTERM; the host's monitor reaps it when it ends.
        func stop() {
            program.send(SIGTERM)
        }
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let output: String
        var description: String { "lanes serve did not announce its address: \(output)" }
    }
}
