import Foundation
import LanesTestSupport
import LanesHTTP
import LanesPlatform
import LanesPlatform
import LanesUpload
import Testing

/// The suites that share the local Google Play, one at a time (each resets its scenario).
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: LocalGooglePlay.available,
                             "needs Google's discovery document in ../shared/googleplay (or $LANES_SHARED_DIR/googleplay), python3 with PyJWT and cryptography, protoc and aapt"))
enum LocalGooglePlayTests {}

/// Tests/Servers/fake_google_play.py, started once per test process: it checks every request against
/// Google's discovery document (../shared/googleplay/androidpublisher.v3.json) and exits with this process.
final class LocalGooglePlay: @unchecked Sendable {
    let base: String
    let folder: URL
    let server: RunningProgram

    /// ../shared/googleplay beside the repository, or $LANES_SHARED_DIR/googleplay.
    static let shared: URL = {
        if let override = ProcessInfo.processInfo.environment["LANES_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("googleplay")
        }
        return LanesCommandLine.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/googleplay")
    }()
    static let discovery = shared.appendingPathComponent("androidpublisher.v3.json").path
    static let fixtures = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesGooglePlayTests/Fixtures")
    static let proto = fixtures.appendingPathComponent("aapt_xml.proto").path
    static let gradlew = fixtures.appendingPathComponent("gradlew").path

    static let available: Bool = FileManager.default.fileExists(atPath: discovery) && AndroidTools.available
        && Program.succeeds(["python3", "-c", "import jwt, cryptography"])

    /// One server for the process, started by the first suite that asks; the suites that use it are
    /// serialized, each resetting its scenario.
    static let server = Task<Result<LocalGooglePlay, StartFailure>, Never> {
        let folder = LanesCommandLine.temporaryDirectory("google-play")
        let server: RunningProgram
        do {
            server = try Program.start(["python3", LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/Servers/fake_google_play.py").path,
                                        folder.path, discovery, proto, String(getpid())])
        } catch {
            return .failure(StartFailure(description: "cannot start python3: \(error)"))
        }
        let portFile = folder.appendingPathComponent("port")
        _ = await eventually(within: .seconds(120)) {
            !server.isRunning || (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) } != nil
        }
        if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
            return .success(LocalGooglePlay(base: "http://127.0.0.1:\(port)", folder: folder, server: server))
        }
        return .failure(StartFailure(description: "the local Google Play did not start: \(server.outputSoFar.suffix(2000))"))
    }

    /// The shared server, or the reason it did not start.
    static func started() async throws -> LocalGooglePlay { try await server.value.get() }

    struct StartFailure: Error, CustomStringConvertible { let description: String }

    private init(base: String, folder: URL, server: RunningProgram) {
        self.base = base
        self.folder = folder
        self.server = server
    }

    /// The service-account key the server wrote (its token_uri is this server's /token).
    var keyPath: String { folder.appendingPathComponent("service-account.json").path }
    var keyJSON: String { (try? String(contentsOfFile: keyPath, encoding: .utf8)) ?? "" }
    var privateKeyLines: [String] {
        ((try? String(contentsOf: folder.appendingPathComponent("play-key.pem"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
    }

    func reset(_ scenario: [String: Any]) async throws {
        let body = try JSONSerialization.data(withJSONObject: scenario)
        let response = try await Self.send(HTTPRequest(method: "POST", url: HTTPURL(base + "/_reset")!, body: .bytes(Array(body))))
        guard response.status == 200 else { throw StartFailure(description: "reset answered \(response.status)") }
    }

    func log() async throws -> [String: Any] {
        let response = try await Self.send(HTTPRequest(method: "GET", url: HTTPURL(base + "/_log")!))
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }

    /// lanes' HTTP client blocks its thread: on a thread of its own, never the cooperative pool.
    private static func send(_ request: HTTPRequest) async throws -> HTTPResponse {
        try await BlockingThread.run(onCancel: {}) { try HTTPClient().send(request) }
    }

    func errors() async throws -> [String] { try await log()["errors"] as? [String] ?? [] }
    func commits() async throws -> [[String: Any]] { try await log()["commits"] as? [[String: Any]] ?? [] }
    func edits() async throws -> [String: [String: Any]] { try await log()["edits"] as? [String: [String: Any]] ?? [:] }
    func tokens() async throws -> [String] { try await log()["tokens"] as? [String] ?? [] }
    func events() async throws -> [[String: Any]] { try await log()["log"] as? [[String: Any]] ?? [] }

    /// Whether the server saw a resumable upload begin, asked every `interval` at most `looks` times:
    /// counted in looks, not on a clock that a busy machine outruns.
    func sawResumableUpload(looks: Int, every interval: Duration) async -> Bool {
        for _ in 0..<looks {
            if ((try? await events()) ?? []).contains(where: { $0["kind"] as? String == "resumable" }) { return true }
            try? await Task.sleep(for: interval)
        }
        return false
    }

    /// Every secret a run must never show: the key file's text, its private key's lines, every token issued.
    func secrets() async throws -> [String] { [keyJSON] + privateKeyLines + (try await tokens()) }
}

/// Debian's Android tools the tests use as independent references.
enum AndroidTools {
    static let available: Bool = ["aapt", "protoc", "zipalign", "apksigner"].allSatisfy { tool in
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    /// Runs the stand-in gradlew (real aapt for APKs, protoc for bundles) in `project`.
    static func build(_ tasks: [String], in project: String, properties: [String: String] = [:], environment: [String: String] = [:]) async throws {
        var arguments = [LocalGooglePlay.gradlew, "-p", project] + properties.map { "-P\($0.key)=\($0.value)" } + tasks
        if !environment.isEmpty { arguments = ["env"] + environment.map { "\($0.key)=\($0.value)" } + arguments }
        let result = try await Program.run(arguments)
        guard result.status == 0 else { throw LocalGooglePlay.StartFailure(description: "gradlew failed: \(result.output)") }
    }

    /// `aapt dump badging`'s package line as fields: name, versionCode, versionName.
    static func badging(_ apk: String) async throws -> [String: String] {
        let output = try await Program.run(["aapt", "dump", "badging", apk]).standardOutput
        var fields: [String: String] = [:]
        for line in output.split(separator: "\n") {
            if line.hasPrefix("package:") {
                for part in line.dropFirst("package:".count).split(separator: " ") {
                    let pair = part.split(separator: "=", maxSplits: 1)
                    if pair.count == 2 { fields[String(pair[0])] = pair[1].trimmingCharacters(in: CharacterSet(charactersIn: "'")) }
                }
            } else if line.hasPrefix("sdkVersion:") {
                fields["sdkVersion"] = line.dropFirst("sdkVersion:".count).trimmingCharacters(in: CharacterSet(charactersIn: "'"))
            }
        }
        return fields
    }
}
