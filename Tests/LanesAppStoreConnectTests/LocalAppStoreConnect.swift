import Foundation
import LanesTestSupport
import LanesUpload
import Testing
import LanesHTTP
import LanesPlatform

/// The suites that share the local App Store Connect, one at a time (each resets its scenario).
@Suite(.timeLimit(.minutes(10)), .serialized, .enabled(if: LocalAppStoreConnect.available,
                             "needs Apple's description in ../shared/appstoreconnect (or $LANES_SHARED_DIR) and python3 with openapi-core, PyJWT, cryptography"))
enum LocalAppStoreConnectTests {}

/// Tests/Servers/fake_app_store_connect.py, started once per test process: it validates every request
/// and answer against Apple's OpenAPI description (../shared/appstoreconnect) with openapi-core.
final class LocalAppStoreConnect: @unchecked Sendable {
    let base: String
    let folder: URL
    let server: RunningProgram

    /// ../shared beside the repository, or $LANES_SHARED_DIR (a worktree elsewhere), as the Xcode corpus is found.
    static let specPath = (ProcessInfo.processInfo.environment["LANES_SHARED_DIR"].flatMap { $0.isEmpty ? nil : URL(fileURLWithPath: $0) }
        ?? LanesCommandLine.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared"))
        .appendingPathComponent("appstoreconnect/app_store_connect_api.json").path
    static let available: Bool = FileManager.default.fileExists(atPath: specPath)
        && Program.succeeds(["python3", "-c", "import openapi_core, jwt, cryptography"])

    static let keyID = "D383SF739A"
    static let issuer = "6053b7fe-68a8-4acb-89be-165aa6465141"

    /// One server for the process, started by the first suite that asks; suites that use it are
    /// serialized, each resetting its scenario.
    static let shared = Task<Result<LocalAppStoreConnect, StartFailure>, Never> {
        let folder = URL(fileURLWithPath: LanesCommandLine.temporaryDirectory("asc").path)
        let server: RunningProgram
        do {
            server = try Program.start(["python3", LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/Servers/fake_app_store_connect.py").path,
                                        folder.path, specPath, String(getpid())])
        } catch {
            return .failure(StartFailure(description: "cannot start python3: \(error)"))
        }
        // Loading Apple's 3.4 MB description takes seconds on a busy machine: wait up to 120 s.
        let portFile = folder.appendingPathComponent("port")
        _ = await eventually(within: .seconds(120)) {
            !server.isRunning || (try? String(contentsOf: portFile, encoding: .utf8)).flatMap { Int($0) } != nil
        }
        if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
            return .success(LocalAppStoreConnect(base: "http://127.0.0.1:\(port)", folder: folder, server: server))
        }
        return .failure(StartFailure(description: "the local App Store Connect did not start: \(server.outputSoFar.suffix(2000))"))
    }

    struct StartFailure: Error, CustomStringConvertible { let description: String }

    /// What the `openssl` command prints: a key or digest made by OpenSSL's tool, not lanes' code.
    static func openssl(_ arguments: [String]) async throws -> String {
        try await Program.run(["openssl"] + arguments).standardOutput
    }

    private init(base: String, folder: URL, server: RunningProgram) {
        self.base = base
        self.folder = folder
        self.server = server
    }

    var keyPath: String { folder.appendingPathComponent("asc.p8").path }
    var keyPEM: String { (try? String(contentsOfFile: keyPath, encoding: .utf8)) ?? "" }

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

    /// A build of app `app`: version (pre-release version) and build number.
    static func build(_ id: String, app: String = "1234567890", version: String, number: String, state: String = "VALID",
                      uploaded: String = "2026-11-20T10:00:00Z") -> [String: Any] {
        ["id": id, "app": app, "preReleaseVersion": version,
         "attributes": ["version": number, "processingState": state, "expired": false, "uploadedDate": uploaded]]
    }

    static var app: [String: Any] { ["id": "1234567890", "attributes": ["name": "Brewer", "bundleId": "com.example.brewer", "sku": "BREWER", "primaryLocale": "en-US"]] }
    /// A prefix match App Store Connect's filter also returns, which lanes must not take.
    static var otherApp: [String: Any] { ["id": "999", "attributes": ["name": "Brewer Pro", "bundleId": "com.example.brewer.pro", "sku": "PRO", "primaryLocale": "en-US"]] }
}
