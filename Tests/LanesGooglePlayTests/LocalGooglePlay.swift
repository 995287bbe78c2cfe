import Foundation
import LanesTestSupport
import LanesHTTP
import LanesUpload
import Testing

/// The suites that share the local Google Play, one at a time (each resets its scenario).
@Suite(.serialized, .enabled(if: LocalGooglePlay.available,
                             "needs Google's discovery document in ../shared/googleplay (or $LANES_SHARED_DIR/googleplay), python3 with PyJWT and cryptography, protoc and aapt"))
enum LocalGooglePlayTests {}

/// Tests/Servers/fake_google_play.py, started once per test process: it checks every request against
/// Google's discovery document (../shared/googleplay/androidpublisher.v3.json) and exits with this process.
final class LocalGooglePlay: @unchecked Sendable {
    let base: String
    let folder: URL
    let process: Process

    /// ../shared/googleplay beside the repository, or $LANES_SHARED_DIR/googleplay.
    static let shared: URL = {
        if let override = ProcessInfo.processInfo.environment["LANES_SHARED_DIR"], !override.isEmpty {
            return URL(fileURLWithPath: override).appendingPathComponent("googleplay")
        }
        return LanesProcess.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared/googleplay")
    }()
    static let discovery = shared.appendingPathComponent("androidpublisher.v3.json").path
    static let fixtures = LanesProcess.repositoryRoot.appendingPathComponent("Tests/LanesGooglePlayTests/Fixtures")
    static let proto = fixtures.appendingPathComponent("aapt_xml.proto").path
    static let gradlew = fixtures.appendingPathComponent("gradlew").path

    static let available: Bool = FileManager.default.fileExists(atPath: discovery) && AndroidTools.available
        && (try? runProgram(["python3", "-c", "import jwt, cryptography"]).status) == 0

    static let server: Result<LocalGooglePlay, StartFailure> = {
        let folder = LanesProcess.temporaryDirectory("google-play")
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["python3", LanesProcess.repositoryRoot.appendingPathComponent("Tests/Servers/fake_google_play.py").path,
                             folder.path, discovery, proto, String(getpid())]
        process.standardOutput = FileHandle.nullDevice
        let errors = folder.appendingPathComponent("server.log")
        FileManager.default.createFile(atPath: errors.path, contents: nil)
        process.standardError = try? FileHandle(forWritingTo: errors)
        do { try process.run() } catch { return .failure(StartFailure(description: "cannot start python3: \(error)")) }
        let found = waitUntil(timeout: 60) { FileManager.default.fileExists(atPath: folder.appendingPathComponent("port").path) }
        guard found, let text = try? String(contentsOf: folder.appendingPathComponent("port"), encoding: .utf8), let port = Int(text) else {
            let log = (try? String(contentsOf: errors, encoding: .utf8)) ?? ""
            return .failure(StartFailure(description: "the local Google Play did not start: \(log.suffix(2000))"))
        }
        return .success(LocalGooglePlay(base: "http://127.0.0.1:\(port)", folder: folder, process: process))
    }()

    struct StartFailure: Error, CustomStringConvertible { let description: String }

    private init(base: String, folder: URL, process: Process) {
        self.base = base
        self.folder = folder
        self.process = process
    }

    /// The service-account key the server wrote (its token_uri is this server's /token).
    var keyPath: String { folder.appendingPathComponent("service-account.json").path }
    var keyJSON: String { (try? String(contentsOfFile: keyPath, encoding: .utf8)) ?? "" }
    var privateKeyLines: [String] {
        ((try? String(contentsOf: folder.appendingPathComponent("play-key.pem"), encoding: .utf8)) ?? "")
            .split(separator: "\n").map(String.init).filter { !$0.hasPrefix("-----") }
    }

    func reset(_ scenario: [String: Any]) throws {
        let body = try JSONSerialization.data(withJSONObject: scenario)
        let response = try HTTPClient().send(HTTPRequest(method: "POST", url: HTTPURL(base + "/_reset")!, body: .bytes(Array(body))))
        guard response.status == 200 else { throw StartFailure(description: "reset answered \(response.status)") }
    }

    func log() throws -> [String: Any] {
        let response = try HTTPClient().send(HTTPRequest(method: "GET", url: HTTPURL(base + "/_log")!))
        return try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any] ?? [:]
    }

    func errors() throws -> [String] { try log()["errors"] as? [String] ?? [] }
    func commits() throws -> [[String: Any]] { try log()["commits"] as? [[String: Any]] ?? [] }
    func edits() throws -> [String: [String: Any]] { try log()["edits"] as? [String: [String: Any]] ?? [:] }
    func tokens() throws -> [String] { try log()["tokens"] as? [String] ?? [] }
    func events() throws -> [[String: Any]] { try log()["log"] as? [[String: Any]] ?? [] }

    /// Every secret a run must never show: the key file's text, its private key's lines, every token issued.
    func secrets() throws -> [String] { [keyJSON] + privateKeyLines + (try tokens()) }
}

/// Debian's Android tools the tests use as independent references.
enum AndroidTools {
    static let available: Bool = ["aapt", "protoc", "zipalign", "apksigner"].allSatisfy { tool in
        (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin").split(separator: ":").contains {
            FileManager.default.isExecutableFile(atPath: "\($0)/\(tool)")
        }
    }

    /// Runs the stand-in gradlew (real aapt for APKs, protoc for bundles) in `project`.
    static func build(_ tasks: [String], in project: String, properties: [String: String] = [:], environment: [String: String] = [:]) throws {
        var arguments = [LocalGooglePlay.gradlew, "-p", project] + properties.map { "-P\($0.key)=\($0.value)" } + tasks
        if !environment.isEmpty { arguments = ["env"] + environment.map { "\($0.key)=\($0.value)" } + arguments }
        let result = try runProgram(arguments)
        guard result.status == 0 else { throw LocalGooglePlay.StartFailure(description: "gradlew failed: \(result.output)\(result.error)") }
    }

    /// `aapt dump badging`'s package line as fields: name, versionCode, versionName.
    static func badging(_ apk: String) throws -> [String: String] {
        let output = try runProgram(["aapt", "dump", "badging", apk]).output
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
