import Foundation
import LanesTestSupport
import Testing

/// The steps through `lanes run`, against the local App Store Connect that validates every request.
extension LocalAppStoreConnectTests {
    @Suite struct AppStoreConnectStepTests {
        let server: LocalAppStoreConnect
        let lanes = LanesProcess()

        init() throws { server = try LocalAppStoreConnect.shared.get() }

        /// The key as a CI secret store holds it: base64 in APP_STORE_CONNECT_API_KEY_KEY.
        var environment: [String: String] {
            ["APP_STORE_CONNECT_API_KEY_KEY_ID": LocalAppStoreConnect.keyID, "APP_STORE_CONNECT_API_KEY_ISSUER_ID": LocalAppStoreConnect.issuer,
             "APP_STORE_CONNECT_API_KEY_KEY": Data(server.keyPEM.utf8).base64EncodedString(),
             "APP_STORE_CONNECT_API_KEY_IS_KEY_CONTENT_BASE64": "true", "LANES_ASC_API_URL": server.base]
        }

        /// No line of the key, its base64, nor any JWT in what lanes printed.
        func expectNoSecrets(_ output: String) {
            for line in server.keyPEM.split(separator: "\n") where !line.hasPrefix("-----") {
                #expect(!output.contains(line), "a line of the private key was printed")
            }
            #expect(!output.contains(Data(server.keyPEM.utf8).base64EncodedString().prefix(40)))
            #expect(!output.contains("eyJ"), "a JWT was printed")
        }

        @Test func latestTestflightBuildNumberPrintsTheHighestAcrossPagesInItsResultEvent() throws {
            let builds = ["7", "99", "100", "12", "8"].enumerated().map {
                LocalAppStoreConnect.build("b\($0.offset)", version: "1.4.0", number: $0.element, uploaded: "2026-11-2\($0.offset)T10:00:00Z")
            }
            try server.reset(["apps": [LocalAppStoreConnect.otherApp, LocalAppStoreConnect.app], "builds": builds, "pageSize": 2])
            let result = try lanes.run(["run", "latest_testflight_build_number", "app_identifier:com.example.brewer", "version:1.4.0", "--json"],
                                       in: LanesProcess.temporaryDirectory("asc-latest"), extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            let event = try #require(result.standardOutput.split(separator: "\n").first { $0.contains(#""event":"result""#) })
            let json = try #require(try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any])
            let value = try #require(json["value"] as? [String: Any])
            #expect(value["build_number"] as? String == "100")
            #expect(value["found"] as? Bool == true)
            let serverErrors = try server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            expectNoSecrets(result.output)
        }

        @Test func uploadToTestflightLeavesWhatToTestAndTheGroupLink() throws {
            try server.reset(["apps": [LocalAppStoreConnect.app], "processingPolls": 1,
                              "groups": [["id": "g1", "app": "1234567890", "attributes": ["name": "QA", "isInternalGroup": false]]]])
            let folder = LanesProcess.temporaryDirectory("asc-upload")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ipa = folder.appendingPathComponent("Brewer.ipa")
            var generator = SplitMix64(seed: 22)
            try Data((0..<2_300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: ipa)
            let result = try lanes.run(["run", "upload_to_testflight", "ipa_path:\(ipa.path)", "app_identifier:com.example.brewer",
                                        "app_version:1.4.0", "build_number:43", "changelog:Try the new login", "groups:QA",
                                        "uses_non_exempt_encryption:false", "wait_processing_interval:0", "--json"],
                                       in: folder, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            let log = try server.log()
            let serverErrors = try server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            let localizations = log["localizations"] as? [[String: Any]] ?? []
            #expect((localizations.first?["attributes"] as? [String: Any])?["whatsNew"] as? String == "Try the new login")
            #expect((log["groupBuilds"] as? [[String: String]])?.first?["group"] == "g1")
            expectNoSecrets(result.output)
        }

        @Test func aKeyInTheLaneIsUsedByLaterSteps() throws {
            try server.reset(["apps": [LocalAppStoreConnect.app], "builds": [LocalAppStoreConnect.build("b1", version: "2.0", number: "5")]])
            let folder = LanesProcess.temporaryDirectory("asc-lane")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try """
            import Lanes

            let lanes = Lanefile {
                Lane("latest", "Next build number") {
                    try await appStoreConnectApiKey(keyID: "\(LocalAppStoreConnect.keyID)", issuerID: "\(LocalAppStoreConnect.issuer)",
                                                    keyFilepath: "\(server.keyPath)")
                    let latest = try await latestTestflightBuildNumber(appIdentifier: "com.example.brewer")
                    print("next build: \\(Int(latest.buildNumber)! + 1)")
                }
            }
            """.write(to: folder.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
            // Nothing in the environment: the key comes from the lane.
            let result = try lanes.run(["latest"], in: folder, extraEnvironment: ["LANES_ASC_API_URL": server.base])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("next build: 6"), "\(result.output)")
            expectNoSecrets(result.output)
        }
    }
}
