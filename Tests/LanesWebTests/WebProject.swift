import Foundation
import LanesCron
import LanesSchedule
import LanesTestSupport
import Testing

/// The `web` fixture project in a temporary folder, with signing material copied into
/// `codesigning/` (the Example's certificate and profile, the signing tests' expired profile), a
/// state folder, and helpers that run real lanes into the real history database.
struct WebProject {
    static let canary = "canary-7f3a91-never-served"

    let directory: URL
    let lanes: LanesProcess
    var state: String { directory.appendingPathComponent("state").path }
    var logs: String { state + "/logs" }

    init() throws {
        directory = LanesProcess.temporaryDirectory("web")
        let fixture = LanesProcess.repositoryRoot.appendingPathComponent("Tests/LanesWebTests/Fixtures/web/Lanefile.swift")
        try FileManager.default.copyItem(at: fixture, to: directory.appendingPathComponent("Lanefile.swift"))
        var lanes = LanesProcess()
        lanes.environment["CANARY"] = Self.canary
        lanes.environment["LANES_STATE_DIR"] = nil
        self.lanes = lanes
        let signing = directory.appendingPathComponent("codesigning")
        try FileManager.default.createDirectory(at: signing, withIntermediateDirectories: true)
        let root = LanesProcess.repositoryRoot
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
    final class LiveRun: @unchecked Sendable {
        let id: Int64
        let process: Process
        let project: WebProject

        init(id: Int64, process: Process, project: WebProject) {
            self.id = id
            self.process = process
            self.project = project
        }

        @discardableResult
        func wait() throws -> RunStatus {
            process.waitUntilExit()
            let status: RunStatus = process.terminationStatus == 0 ? .succeeded : .failed
            try project.store().recordEvents(id: id, folder: "\(project.logs)/\(id)")
            try project.store().finish(id: id, status: status, exitStatus: process.terminationStatus,
                                       ended: SystemCronClock().now())
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
        FileManager.default.createFile(atPath: logPath, contents: nil, attributes: [.posixPermissions: 0o600])
        let log = try #require(FileHandle(forWritingAtPath: logPath))
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try LanesProcess.executable)
        process.arguments = [lane, "--run-folder", folder]
        process.currentDirectoryURL = directory
        process.environment = lanes.environment
        process.standardOutput = log
        process.standardError = log
        process.standardInput = FileHandle.nullDevice
        try process.run()
        try store.markRunning([StartedRun(id: id, processID: process.processIdentifier, started: SystemCronClock().now(),
                                          logPath: logPath, folder: folder)])
        return LiveRun(id: id, process: process, project: self)
    }

    /// Runs a lane to its end; returns the run's id.
    @discardableResult
    func run(_ lane: String, trigger: RunTrigger = .timer, scheduled: CronInstant? = nil, commit: String? = nil) throws -> Int64 {
        let live = try start(lane, trigger: trigger, scheduled: scheduled, commit: commit)
        try live.wait()
        return live.id
    }

    /// `lanes ARGUMENTS` in the project.
    func lanes(_ arguments: [String], extraEnvironment: [String: String] = [:]) throws -> LanesProcess.Result {
        try lanes.run(arguments, in: directory, extraEnvironment: extraEnvironment)
    }

    /// `lanes serve --http 127.0.0.1:0` on this project; stopped (SIGTERM) by `stop()`.
    final class Server: @unchecked Sendable {
        let process = Process()
        let port: UInt16
        let errorLog: String
        let token: String

        init(project: WebProject, arguments: [String] = [], extraEnvironment: [String: String] = [:]) throws {
            var environment = project.lanes.environment.merging(extraEnvironment) { $1 }
            environment["CERTIFICATE_PASSWORD"] = environment["CERTIFICATE_PASSWORD"] ?? "brewer-3des-pass"
            errorLog = project.directory.appendingPathComponent("serve-\(UUID().uuidString).stderr").path
            FileManager.default.createFile(atPath: errorLog, contents: nil)
            process.executableURL = URL(fileURLWithPath: try LanesProcess.executable)
            process.arguments = ["serve", "--http", "127.0.0.1:0", "--state-dir", project.state] + arguments
            process.currentDirectoryURL = project.directory
            process.environment = environment
            process.standardOutput = FileHandle.nullDevice
            process.standardError = try #require(FileHandle(forWritingAtPath: errorLog))
            process.standardInput = FileHandle.nullDevice
            try process.run()
            // `lanes serve: http://127.0.0.1:PORT/ ...` on standard error once it listens.
            var found: UInt16?
            let deadline = Date().addingTimeInterval(90)
            while found == nil, Date() < deadline, process.isRunning {
                let text = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
                if let match = text.firstMatch(of: /http:\/\/127\.0\.0\.1:(\d+)\//) { found = UInt16(match.1) }
                if found == nil { Thread.sleep(forTimeInterval: 0.05) }
            }
            let errors = (try? String(contentsOfFile: errorLog, encoding: .utf8)) ?? ""
            guard let found else {
                if process.isRunning { process.terminate() }
                throw ServerDidNotStart(output: errors)
            }
            port = found
            // The token the server keeps in the state folder (0600): what the login address hands a browser.
            let tokenFile = (arguments.firstIndex(of: "--state-dir").map { arguments[$0 + 1] } ?? project.state) + "/web-token"
            guard let token = try? String(contentsOfFile: tokenFile, encoding: .utf8) else {
                if process.isRunning { process.terminate() }
                throw ServerDidNotStart(output: "no token in \(tokenFile): " + errors)
            }
            self.token = token.trimmingCharacters(in: .whitespacesAndNewlines)
        }

        /// A request as a signed-in browser makes it (the `lanes_token` cookie), unless `signedIn` is false.
        func get(_ target: String, signedIn: Bool = true, headers: [String: String] = [:]) throws -> RawHTTP.Response {
            var headers = headers
            if signedIn { headers["Cookie"] = headers["Cookie"] ?? "lanes_token=\(token)" }
            return try RawHTTP.request(port: port, target, headers: headers)
        }

        /// The address that signs a browser in.
        var loginURL: String { "\(baseURL)/login?token=\(token)" }

        var baseURL: String { "http://127.0.0.1:\(port)" }

        func stop() {
            if process.isRunning { kill(process.processIdentifier, SIGTERM) }
            process.waitUntilExit()
        }
    }

    struct ServerDidNotStart: Error, CustomStringConvertible {
        let output: String
        var description: String { "lanes serve did not announce its address: \(output)" }
    }
}
