import Foundation
import LanesUpload
import Testing
import LanesHTTP

/// Firebase App Distribution and App Store Connect flows against Tests/Servers/fake_delivery_services.py,
/// which implements the documented endpoints and verifies lanes' JWTs with PyJWT + cryptography.
@Suite(.enabled(if: FakeDeliveryServices.available, "needs python3 with PyJWT and cryptography: run `make test-deps`"))
struct DeliveryServiceTests {
    let services: FakeDeliveryServices

    init() throws { services = try FakeDeliveryServices.shared.get() }

    final class Secrets: @unchecked Sendable {
        private let lock = NSLock()
        private var values: [String] = []
        func register(_ value: String) { lock.withLock { values.append(value) } }
        var all: [String] { lock.withLock { values } }
    }

    @Test func firebaseUploadPollsSetsNotesAndDistributes() throws {
        let file = try TestFiles.random(size: 2_500_000, name: "App.ipa")
        let secrets = Secrets()
        let serviceAccount = """
        {"type": "service_account", "project_id": "example-project", "private_key_id": "key-1",
         "private_key": \(try jsonString(services.googleKey)), "client_email": "lanes-ci@example-project.iam.gserviceaccount.com",
         "token_uri": "\(services.base)/token"}
        """
        let uploads = Uploads(environment: ["FIREBASE_SERVICE_ACCOUNT": serviceAccount, "LANES_FIREBASE_API_URL": services.base],
                              registerSecret: secrets.register, sleeper: NoSleep())
        let settings = UploadSettings(firebase: FirebaseReleaseOptions(releaseNotes: "Fixes the login crash", testers: ["qa@example.com"],
                                                                       groups: ["beta", "staff"], pollInterval: 0))
        let receipt = try uploads.upload(file: file.path, to: .firebase(appID: "1:123456789012:ios:0a1b2c3d4e5f6789"), settings: settings)
        #expect(receipt.location == "projects/123456789012/apps/1:123456789012:ios:0a1b2c3d4e5f6789/releases/r-1")
        let log = try services.log()
        #expect(log.errors.isEmpty, "\(log.errors)")
        // Each Firebase request was also checked against Google's discovery document, where it is at hand.
        #expect(try services.validatedAgainstDiscovery() == FileManager.default.fileExists(atPath: FakeDeliveryServices.firebaseDiscovery))
        let upload = try #require(log.events.first { $0["event"] as? String == "firebase-upload" })
        #expect(upload["sha256"] as? String == (try TestFiles.sha256(of: file)))
        #expect(upload["fileName"] as? String == "App.ipa")
        #expect(log.events.contains { $0["event"] as? String == "firebase-notes" && $0["text"] as? String == "Fixes the login crash" })
        let distribute = try #require(log.events.first { $0["event"] as? String == "firebase-distribute" })
        #expect(distribute["testers"] as? [String] == ["qa@example.com"])
        #expect(distribute["groups"] as? [String] == ["beta", "staff"])
        // The key, the inline JSON, the signed assertion and the access token were all handed to the redactor.
        #expect(secrets.all.contains(serviceAccount))
        #expect(secrets.all.contains { $0.hasPrefix("ya29.fake-") })
        #expect(secrets.all.contains { $0.split(separator: ".").count == 3 && $0.hasPrefix("eyJ") })
    }

    @Test func aServiceAccountTheTokenEndpointRejectsNamesTheVariable() throws {
        let file = try TestFiles.random(size: 1000)
        let keyPath = try writeTemporary(services.otherRSAKey())
        let account = """
        {"type": "service_account", "private_key_id": "key-1", "private_key": \(try jsonString(String(contentsOfFile: keyPath, encoding: .utf8))),
         "client_email": "lanes-ci@example-project.iam.gserviceaccount.com", "token_uri": "\(services.base)/token"}
        """
        let accountPath = try writeTemporary(account)
        let uploads = Uploads(environment: ["GOOGLE_APPLICATION_CREDENTIALS": accountPath, "LANES_FIREBASE_API_URL": services.base],
                              registerSecret: { _ in }, sleeper: NoSleep())
        let error = try #require(throws: UploadError.self) {
            try uploads.upload(file: file.path, to: .firebase(appID: "1:123456789012:ios:0a1b2c3d4e5f6789"))
        }
        #expect(error.kind == .configuration)
        #expect(error.hint == "check GOOGLE_APPLICATION_CREDENTIALS")
        #expect(try services.log().events.contains { $0["event"] as? String == "token-rejected" })
    }

    private func jsonString(_ text: String) throws -> String {
        String(decoding: try JSONEncoder().encode(text), as: UTF8.self)
    }

    private func writeTemporary(_ text: String) throws -> String {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-upload-\(UUID().uuidString)")
        try text.write(to: url, atomically: true, encoding: .utf8)
        return url.path
    }
}

struct NoSleep: Sleeper {
    func sleep(seconds: Double) {}
}

/// The Python stand-in, started once per test process; it exits when this process does.
struct FakeDeliveryServices: Sendable {
    let base: String
    let folder: URL

    var googleKey: String { (try? String(contentsOf: folder.appendingPathComponent("google.pem"), encoding: .utf8)) ?? "" }

    static let available: Bool = (try? Spawn.run(["python3", "-c", "import jwt, cryptography"])) == 0

    static let shared: Result<FakeDeliveryServices, TestServers.ServerStartFailure> = {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-fake-services-\(getpid())-\(UUID().uuidString.prefix(8))")
        do {
            _ = try Spawn.start(["python3", TestServers.repositoryRoot.appendingPathComponent("Tests/Servers/fake_delivery_services.py").path,
                                 folder.path, String(getpid())])
        } catch { return .failure(.init(description: "cannot start the fake services: \(error)")) }
        let portFile = folder.appendingPathComponent("port")
        for _ in 0..<200 {
            if let text = try? String(contentsOf: portFile, encoding: .utf8), let port = Int(text) {
                return .success(FakeDeliveryServices(base: "http://127.0.0.1:\(port)", folder: folder))
            }
            usleep(50_000)
        }
        return .failure(.init(description: "the fake services did not start"))
    }()

    func log() throws -> (events: [[String: Any]], errors: [String]) {
        let client = HTTPClient()
        let response = try client.send(HTTPRequest(method: "GET", url: try #require(HTTPURL(base + "/_log"))))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return (document["log"] as? [[String: Any]] ?? [], document["errors"] as? [String] ?? [])
    }

    /// ../shared/googleplay/firebaseappdistribution.v1.json beside the repository (or under $LANES_SHARED_DIR).
    static var firebaseDiscovery: String {
        let shared = ProcessInfo.processInfo.environment["LANES_SHARED_DIR"].flatMap { $0.isEmpty ? nil : $0 }
            ?? TestServers.repositoryRoot.deletingLastPathComponent().appendingPathComponent("shared").path
        return shared + "/googleplay/firebaseappdistribution.v1.json"
    }

    func validatedAgainstDiscovery() throws -> Bool {
        let response = try HTTPClient().send(HTTPRequest(method: "GET", url: try #require(HTTPURL(base + "/_log"))))
        let document = try #require(try JSONSerialization.jsonObject(with: Data(response.body)) as? [String: Any])
        return document["validated"] as? Bool ?? false
    }

    func otherRSAKey() throws -> String { try generate(["genpkey", "-algorithm", "RSA", "-pkeyopt", "rsa_keygen_bits:2048"]) }

    private func generate(_ arguments: [String]) throws -> String {
        String(decoding: try Spawn.output(["openssl"] + arguments).output, as: UTF8.self)
    }
}
