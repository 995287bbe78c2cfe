import Foundation
import Lanes
import LanesAppStoreConnect
import LanesTestSupport
import LanesUpload
import Testing
import LanesHTTP

/// Waits nowhere; remembers how long it was asked to wait.
final class RecordingSleeper: AsyncSleeper, @unchecked Sendable {
    private let lock = NSLock()
    private var waits: [Double] = []
    var all: [Double] { lock.withLock { waits } }
    func sleep(seconds: Double) async throws { lock.withLock { waits.append(seconds) } }
}

final class SecretList: @unchecked Sendable {
    private let lock = NSLock()
    private var values: [String] = []
    func add(_ value: String) { lock.withLock { values.append(value) } }
    var all: [String] { lock.withLock { values } }
}

extension LocalAppStoreConnectTests {
    @Suite(.timeLimit(.minutes(10))) struct AppStoreConnectClientTests {
        let server: LocalAppStoreConnect

        init() async throws { server = try await LocalAppStoreConnect.shared.value.get() }

        func client(sleeper: RecordingSleeper = RecordingSleeper(), secrets: SecretList = SecretList(),
                    now: @escaping @Sendable () -> Int = systemSeconds) throws -> AppStoreConnectClient {
            let key = try AppStoreConnectKey(keyID: LocalAppStoreConnect.keyID, issuerID: LocalAppStoreConnect.issuer, keyContent: server.keyPEM)
            return AppStoreConnectClient(key: key, baseURL: HTTPURL(server.base)!, registerSecret: secrets.add, sleeper: sleeper, now: now)
        }

        static let numbers = ["7", "99", "100", "12", "8"]

        func scenarioWithPagedBuilds(extra: [String: Any] = [:]) async throws {
            var builds = Self.numbers.enumerated().map { LocalAppStoreConnect.build("b\($0.offset)", version: "1.4.0", number: $0.element,
                                                                                   uploaded: "2026-11-2\($0.offset)T10:00:00Z") }
            builds.append(LocalAppStoreConnect.build("old", version: "1.3.0", number: "500"))
            try await server.reset(["apps": [LocalAppStoreConnect.otherApp, LocalAppStoreConnect.app], "builds": builds, "pageSize": 2].merging(extra) { $1 })
        }

        @Test func theHighestBuildNumberIsFoundAcrossPagesInApplesOrder() async throws {
            try await scenarioWithPagedBuilds()
            let client = try client()
            let app = try await client.app(bundleID: "com.example.brewer")
            #expect(app.id == "1234567890")
            let latest = try await client.latestTestFlightBuildNumber(appID: app.id, version: "1.4.0", platform: .ios)
            #expect(latest == "100")
            let log = try await server.log()
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            let buildRequests = (log["log"] as? [[String: Any]] ?? []).filter { $0["path"] as? String == "/v1/builds" }
            #expect(buildRequests.count == 3, "5 builds at 2 a page")
        }

        @Test func theAppStoreBuildNumberIsTheLiveVersionsOrTheNewest() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app],
                              "builds": [LocalAppStoreConnect.build("b1", version: "1.9.0", number: "310"),
                                         LocalAppStoreConnect.build("b2", version: "1.10.0", number: "402")],
                              "versions": [["id": "v19", "app": "1234567890", "build": "b1",
                                            "attributes": ["platform": "IOS", "versionString": "1.9.0", "appStoreState": "READY_FOR_SALE"]],
                                           ["id": "v110", "app": "1234567890", "build": "b2",
                                            "attributes": ["platform": "IOS", "versionString": "1.10.0", "appStoreState": "WAITING_FOR_REVIEW"]]]])
            let client = try client()
            let live = try await client.appStoreBuildNumber(appID: "1234567890", live: true, version: nil, platform: .ios)
            #expect(live?.version == "1.9.0")
            #expect(live?.build == "310")
            let newest = try await client.appStoreBuildNumber(appID: "1234567890", live: false, version: nil, platform: .ios)
            #expect(newest?.version == "1.10.0", "1.10.0 comes after 1.9.0")
            #expect(newest?.build == "402")
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        @Test func a429IsRetriedAfterRetryAfterForGETs() async throws {
            try await scenarioWithPagedBuilds(extra: ["throttle": ["path": "/v1/builds", "times": 1, "retryAfter": 3]])
            let sleeper = RecordingSleeper()
            let latest = try await client(sleeper: sleeper).latestTestFlightBuildNumber(appID: "1234567890", version: nil, platform: nil)
            #expect(latest == "500")
            #expect(sleeper.all == [3])
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        @Test func a409NamesApplesDetailAndTheRequestAndIsNotRetried() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app], "conflict": "/v1/betaBuildLocalizations",
                              "builds": [LocalAppStoreConnect.build("b1", version: "1.4.0", number: "42")]])
            let secrets = SecretList()
            let client = try client(secrets: secrets)
            let build = try #require(try await client.builds(appID: "1234567890").first)
            let error = try await #require(throws: AppStoreConnectError.self) {
                _ = try await client.distribute(build: build, appID: "1234567890", version: "1.4.0", platform: .ios,
                                                TestFlightDistribution(changelog: ["en-US": "New login"]), progress: { _ in })
            }
            #expect(error.status == 409)
            #expect(error.request == "POST /v1/betaBuildLocalizations")
            #expect(error.message.contains("The version number has been previously used."))
            let posts = (try await server.log()["log"] as? [[String: Any]] ?? []).filter { $0["method"] as? String == "POST" }
            #expect(posts.count == 1)
            for secret in secrets.all { #expect(!error.description.contains(secret)) }
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        @Test func anExpiredTokenIsRenewedOnce() async throws {
            try await scenarioWithPagedBuilds()
            // The first token is made 30 minutes in the past (so it is already expired); later ones now.
            let calls = SecretList()
            let client = try client(now: {
                calls.add("call")
                return systemSeconds() - (calls.all.count == 1 ? 1800 : 0)
            })
            let app = try await client.app(bundleID: "com.example.brewer")
            #expect(app.id == "1234567890")
            let log = try await server.log()
            #expect((log["log"] as? [[String: Any]] ?? []).contains { $0["event"] as? String == "expired-token" })
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        @Test func whatToTestPerLocaleWithPilotsDefaultForTheBuildsOtherLocales() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app], "builds": [LocalAppStoreConnect.build("b1", version: "1.4.0", number: "42")],
                              "localizations": [["id": "loc-fr", "build": "b1", "attributes": ["locale": "fr-FR", "whatsNew": "Ancien"]]]])
            let client = try client()
            let build = try await client.waitForBuild(appID: "1234567890", version: "1.4.0", buildNumber: "42", platform: .ios,
                                                      pollInterval: 5, timeout: 60, waitForProcessing: true, progress: { _ in })
            let outcome = try await client.distribute(build: build, appID: "1234567890", version: "1.4.0", platform: .ios,
                                                      TestFlightDistribution(changelog: ["default": "Please test", "en-US": "Try the login"]),
                                                      progress: { _ in })
            #expect(outcome.localizedLocales == ["en-US", "fr-FR"])
            let texts = Dictionary((try await server.log()["localizations"] as? [[String: Any]] ?? []).compactMap { item -> (String, String)? in
                guard let attributes = item["attributes"] as? [String: Any], let locale = attributes["locale"] as? String else { return nil }
                return (locale, attributes["whatsNew"] as? String ?? "")
            }) { $1 }
            #expect(texts == ["fr-FR": "Please test", "en-US": "Try the login"], "no 'default' locale is created")
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        @Test func changelogGroupsAndReviewLeaveTheirResourcesOnTheServer() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app], "processingPolls": 2,
                              "builds": [LocalAppStoreConnect.build("b1", version: "1.4.0", number: "42", state: "PROCESSING")],
                              "groups": [["id": "g1", "app": "1234567890", "attributes": ["name": "QA", "isInternalGroup": false]],
                                         ["id": "g2", "app": "1234567890", "attributes": ["name": "Staff", "isInternalGroup": true]]]])
            let sleeper = RecordingSleeper()
            let client = try client(sleeper: sleeper)
            let build = try await client.waitForBuild(appID: "1234567890", version: "1.4.0", buildNumber: "42", platform: .ios,
                                                      pollInterval: 5, timeout: 60, waitForProcessing: true, progress: { _ in })
            #expect(build.attributes?.processingState == "VALID")
            #expect(sleeper.all == [5, 5])
            let outcome = try await client.distribute(
                build: build, appID: "1234567890", version: "1.4.0", platform: .ios,
                TestFlightDistribution(changelog: ["en-US": "Try the new login"], groups: ["QA"], distributeExternal: true, usesNonExemptEncryption: false,
                                       betaAppReviewInfo: ["contact_email": "qa@example.com", "demo_account_required": "false"]),
                progress: { _ in })
            #expect(outcome.groups == ["QA"])
            #expect(outcome.submittedForReview)
            let log = try await server.log()
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            let localizations = log["localizations"] as? [[String: Any]] ?? []
            #expect((localizations.first?["attributes"] as? [String: Any])?["whatsNew"] as? String == "Try the new login")
            #expect((log["groupBuilds"] as? [[String: String]]) == [["group": "g1", "build": "b1"]])
            #expect((log["submissions"] as? [String]) == ["b1"])
        }

        @Test func processingThatOutlastsTheDeadlineFailsNamingTheOption() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app], "processingPolls": 100,
                              "builds": [LocalAppStoreConnect.build("b1", version: "1.4.0", number: "42", state: "PROCESSING")]])
            let error = try await #require(throws: UploadError.self) {
                _ = try await client().waitForBuild(appID: "1234567890", version: "1.4.0", buildNumber: "42", platform: .ios,
                                                    pollInterval: 10, timeout: 30, waitForProcessing: true, progress: { _ in })
            }
            #expect(error.message.contains("still PROCESSING"))
            #expect(error.hint?.contains("skip_waiting_for_build_processing") == true)
        }

        @Test func aCancelledWaitEndsAtOnce() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app], "processingPolls": 100,
                              "builds": [LocalAppStoreConnect.build("b1", version: "1.4.0", number: "42", state: "PROCESSING")]])
            let key = try AppStoreConnectKey(keyID: LocalAppStoreConnect.keyID, issuerID: LocalAppStoreConnect.issuer, keyContent: server.keyPEM)
            let client = AppStoreConnectClient(key: key, baseURL: HTTPURL(server.base)!, registerSecret: { _ in })
            let task = Task {
                try await client.waitForBuild(appID: "1234567890", version: "1.4.0", buildNumber: "42", platform: .ios,
                                              pollInterval: 3600, timeout: 7200, waitForProcessing: true, progress: { _ in })
            }
            // Cancel once the first look has been made (the server's log says so), never after a fixed sleep.
            for _ in 0..<2000 {
                if (try await server.log()["log"] as? [[String: Any]] ?? []).contains(where: { $0["path"] as? String == "/v1/builds" }) { break }
                await Task.yield()
            }
            task.cancel()
            let outcome = await task.result
            #expect(throws: CancellationError.self) { try outcome.get() }
        }

        @Test func anotherKeysTokenIsRefusedWithTheKeysHint() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app]])
            let pem = try await LocalAppStoreConnect.openssl(["genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
            let key = try AppStoreConnectKey(keyID: LocalAppStoreConnect.keyID, issuerID: LocalAppStoreConnect.issuer, keyContent: pem)
            let client = AppStoreConnectClient(key: key, baseURL: HTTPURL(server.base)!, registerSecret: { _ in }, sleeper: RecordingSleeper())
            let error = try await #require(throws: AppStoreConnectError.self) { _ = try await client.app(bundleID: "com.example.brewer") }
            #expect(error.status == 401)
            #expect(error.request == "GET /v1/apps")
            #expect(error.hint?.contains("key \(LocalAppStoreConnect.keyID) may be revoked") == true, "\(error.description)")
            let signatures = (try await server.log()["log"] as? [[String: Any]] ?? []).filter { $0["event"] as? String == "bad-signature" }
            #expect(signatures.count == 2, "one renewal, then the refusal")
        }

        @Test func aBase64KeyIsAcceptedAndItsEveryShapeIsASecret() throws {
            let base64 = Data(server.keyPEM.utf8).base64EncodedString()
            let redactor = Redactor()
            let key = try AppStoreConnectAPIKeyStep.key(from: Environment(variables: [AppStoreConnectKey.Variable.keyID: LocalAppStoreConnect.keyID,
                                                                                      AppStoreConnectKey.Variable.issuerID: LocalAppStoreConnect.issuer,
                                                                                      AppStoreConnectKey.Variable.key: base64,
                                                                                      AppStoreConnectKey.Variable.isBase64: "true"], redactor: redactor))
            #expect(key.privateKeyPEM == server.keyPEM)
            #expect(key.secrets.contains(base64))
            #expect(key.secrets.contains(server.keyPEM))
            let keyLine = try #require(server.keyPEM.split(separator: "\n").first { !$0.hasPrefix("-----") })
            #expect(!redactor.redact("key: \(keyLine) and \(base64)").contains(String(keyLine)), "the step layer registered the material")
        }

        @Test func theOldASCNamesStillWork() throws {
            let key = try AppStoreConnectAPIKeyStep.key(from: Environment(variables: ["ASC_KEY_ID": "K1", "ASC_ISSUER_ID": "I1", "ASC_PRIVATE_KEY": server.keyPath]))
            #expect(key.keyID == "K1")
            #expect(key.privateKeyPEM == server.keyPEM)
        }

        @Test func aKeyThatIsNeitherPEMNorBase64NamesTheVariable() {
            let error = #expect(throws: UploadError.self) {
                try AppStoreConnectAPIKeyStep.key(from: Environment(variables: [AppStoreConnectKey.Variable.keyID: "K", AppStoreConnectKey.Variable.issuerID: "I",
                                                                                AppStoreConnectKey.Variable.key: "not a key!"]))
            }
            #expect(error?.message.contains(AppStoreConnectKey.Variable.key) == true)
            #expect(error?.message.contains("not a key!") == false)
        }
    }
}
