import Foundation
import LanesTestSupport
import Testing
import LanesHTTP

/// The steps through `lanes run`, against the local App Store Connect that validates every request.
extension LocalAppStoreConnectTests {
    @Suite(.timeLimit(.minutes(10)), .tags(.live)) struct AppStoreConnectStepTests {
        let server: LocalAppStoreConnect
        let lanes = LanesCommandLine()

        init() async throws { server = try await LocalAppStoreConnect.shared.value.get() }

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

        /// Nor in any file lanes left in the project (events, history, logs) or its cache.
        func expectNoSecretsInFiles(under folders: [URL]) {
            let keyLines = server.keyPEM.split(separator: "\n").filter { !$0.hasPrefix("-----") }.map(String.init)
            for folder in folders {
                guard let walker = FileManager.default.enumerator(atPath: folder.path) else { continue }
                for case let relative as String in walker {
                    let path = folder.appendingPathComponent(relative).path
                    if relative.hasSuffix(".ipa") { continue }
                    guard let data = FileManager.default.contents(atPath: path) else { continue }
                    let text = String(decoding: data, as: UTF8.self)
                    #expect(!text.contains("eyJ"), "a JWT in \(path)")
                    #expect(!text.contains("Signature=presigned"), "a part URL's signature in \(path)")
                    for line in keyLines { #expect(!text.contains(line), "key material in \(path)") }
                }
            }
        }

        @Test func latestTestflightBuildNumberPrintsTheHighestAcrossPagesInItsResultEvent() async throws {
            let builds = ["7", "99", "100", "12", "8"].enumerated().map {
                LocalAppStoreConnect.build("b\($0.offset)", version: "1.4.0", number: $0.element, uploaded: "2026-11-2\($0.offset)T10:00:00Z")
            }
            try await server.reset(["apps": [LocalAppStoreConnect.otherApp, LocalAppStoreConnect.app], "builds": builds, "pageSize": 2])
            let result = try await lanes.run(["run", "latest_testflight_build_number", "app_identifier:com.example.brewer", "version:1.4.0", "--json"],
                                       in: LanesCommandLine.temporaryDirectory("asc-latest"), extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            let event = try #require(result.standardOutput.split(separator: "\n").first { $0.contains(#""event":"result""#) })
            let json = try #require(try JSONSerialization.jsonObject(with: Data(event.utf8)) as? [String: Any])
            let value = try #require(json["value"] as? [String: Any])
            #expect(value["build_number"] as? String == "100")
            #expect(value["found"] as? Bool == true)
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            expectNoSecrets(result.output)
        }

        @Test func uploadToTestflightLeavesWhatToTestAndTheGroupLink() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app], "processingPolls": 1,
                              "groups": [["id": "g1", "app": "1234567890", "attributes": ["name": "QA", "isInternalGroup": false]]]])
            let folder = LanesCommandLine.temporaryDirectory("asc-upload")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ipa = folder.appendingPathComponent("Brewer.ipa")
            var generator = SplitMix64(seed: 22)
            try Data((0..<2_300_000).map { _ in UInt8.random(in: 0...255, using: &generator) }).write(to: ipa)
            let result = try await lanes.run(["run", "upload_to_testflight", "ipa_path:\(ipa.path)", "app_identifier:com.example.brewer",
                                        "app_version:1.4.0", "build_number:43", "changelog:Try the new login", "groups:QA",
                                        "uses_non_exempt_encryption:false", "wait_processing_interval:0", "distribute_external:true",
                                        "beta_app_review_info:contact_email=qa@example.com,demo_account_required=true", "--json"],
                                       in: folder, extraEnvironment: environment.merging(["PILOT_DEMO_ACCOUNT_PASSWORD": "Canary-Pass-22"]) { $1 })
            #expect(result.status == 0, "\(result.output)")
            let log = try await server.log()
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            let localizations = log["localizations"] as? [[String: Any]] ?? []
            #expect((localizations.first?["attributes"] as? [String: Any])?["whatsNew"] as? String == "Try the new login")
            #expect((log["groupBuilds"] as? [[String: String]])?.first?["group"] == "g1")
            let review = (log["reviewDetails"] as? [String: [String: Any]])?["1234567890"]
            #expect(review?["demoAccountPassword"] as? String == "Canary-Pass-22")
            #expect((log["submissions"] as? [String])?.count == 1)
            #expect(!result.output.contains("Canary-Pass-22"), "the demo account password was printed")
            expectNoSecrets(result.output)
            expectNoSecretsInFiles(under: [folder, lanes.cacheDirectory])
        }

        /// fastlane's pilot: with a changelog, skipping the wait still waits for the build to appear, sets What to
        /// Test on the processing build and returns; groups need the processed build and are refused.
        @Test func skipWaitingWithAChangelogSetsWhatToTestOnTheProcessingBuild() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app], "processingPolls": 5])
            let folder = LanesCommandLine.temporaryDirectory("asc-skip")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let ipa = folder.appendingPathComponent("Brewer.ipa")
            try Data(repeating: 7, count: 4096).write(to: ipa)
            let common = ["run", "upload_to_testflight", "ipa_path:\(ipa.path)", "app_identifier:com.example.brewer", "app_version:1.4.0",
                          "build_number:44", "changelog:Quick look", "skip_waiting_for_build_processing:true", "wait_processing_interval:0"]
            let result = try await lanes.run(common, in: folder, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            let log = try await server.log()
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            let localizations = log["localizations"] as? [[String: Any]] ?? []
            #expect((localizations.first?["attributes"] as? [String: Any])?["whatsNew"] as? String == "Quick look")
            let looks = (log["log"] as? [[String: Any]] ?? []).filter { $0["method"] as? String == "GET" && $0["path"] as? String == "/v1/builds" }
            #expect(looks.count < 5, "waited for processing: \(looks.count) looks")
            let refused = try await lanes.run(common + ["groups:QA"], in: folder, extraEnvironment: environment)
            #expect(refused.status != 0)
            #expect(refused.output.contains("need the processed build"), "\(refused.output)")
        }

        @Test func aKeyInTheLaneIsUsedByLaterSteps() async throws {
            try await server.reset(["apps": [LocalAppStoreConnect.app], "builds": [LocalAppStoreConnect.build("b1", version: "2.0", number: "5")]])
            let folder = LanesCommandLine.temporaryDirectory("asc-lane")
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
            let result = try await lanes.run(["latest"], in: folder, extraEnvironment: ["LANES_ASC_API_URL": server.base])
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("next build: 6"), "\(result.output)")
            expectNoSecrets(result.output)
            expectNoSecretsInFiles(under: [folder.appendingPathComponent(".lanes")])
        }

        /// A fastlane metadata folder with en-US and de-DE, `keywords` as given.
        func metadataFolder(_ label: String, keywords: String = "coffee,brew,timer") throws -> URL {
            let folder = LanesCommandLine.temporaryDirectory(label)
            for (locale, description) in [("en-US", "Brew better coffee."), ("de-DE", "Besserer Kaffee.")] {
                let localeFolder = folder.appendingPathComponent("fastlane/metadata/\(locale)")
                try FileManager.default.createDirectory(at: localeFolder, withIntermediateDirectories: true)
                try "\(description)\n".write(to: localeFolder.appendingPathComponent("description.txt"), atomically: true, encoding: .utf8)
                try keywords.write(to: localeFolder.appendingPathComponent("keywords.txt"), atomically: true, encoding: .utf8)
                try "Faster timer".write(to: localeFolder.appendingPathComponent("release_notes.txt"), atomically: true, encoding: .utf8)
                try "Brewer".write(to: localeFolder.appendingPathComponent("name.txt"), atomically: true, encoding: .utf8)
            }
            try "Coffee, timed".write(to: folder.appendingPathComponent("fastlane/metadata/en-US/subtitle.txt"), atomically: true, encoding: .utf8)
            try "2026 Example GmbH".write(to: folder.appendingPathComponent("fastlane/metadata/copyright.txt"), atomically: true, encoding: .utf8)
            return folder
        }

        var versionScenario: [String: Any] {
            ["apps": [LocalAppStoreConnect.app],
             "builds": [LocalAppStoreConnect.build("b42", version: "1.4.0", number: "42")],
             "versions": [["id": "v1", "app": "1234567890",
                           "attributes": ["platform": "IOS", "versionString": "1.4.0", "appStoreState": "PREPARE_FOR_SUBMISSION",
                                          "appVersionState": "PREPARE_FOR_SUBMISSION"]]],
             "versionLocalizations": [["id": "l-en", "version": "v1", "attributes": ["locale": "en-US", "description": "Old text."]]],
             "appInfos": [["id": "info-live", "app": "1234567890", "attributes": ["state": "READY_FOR_DISTRIBUTION"]],
                          ["id": "info-edit", "app": "1234567890", "attributes": ["state": "PREPARE_FOR_SUBMISSION"]]],
             "appInfoLocalizations": [["id": "il-en", "info": "info-edit", "attributes": ["locale": "en-US", "name": "Brewer"]]]]
        }

        @Test func uploadToAppStoreUpdatesTheVersionsLocalizationsAttachesTheBuildAndSubmits() async throws {
            try await server.reset(versionScenario)
            let folder = try metadataFolder("asc-deliver")
            let result = try await lanes.run(["run", "upload_to_app_store", "app_identifier:com.example.brewer", "app_version:1.4.0",
                                        "build_number:42", "submit_for_review:true", "automatic_release:true", "--json"],
                                       in: folder, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            let log = try await server.log()
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            let localizations = log["versionLocalizations"] as? [[String: Any]] ?? []
            let english = localizations.first { $0["id"] as? String == "l-en" }?["attributes"] as? [String: Any]
            #expect(english?["description"] as? String == "Brew better coffee.")
            #expect(english?["keywords"] as? String == "coffee,brew,timer")
            #expect(english?["whatsNew"] as? String == "Faster timer")
            let german = localizations.first { ($0["attributes"] as? [String: Any])?["locale"] as? String == "de-DE" }
            #expect(german?["version"] as? String == "v1")
            let version = (log["versions"] as? [[String: Any]])?.first
            #expect(version?["build"] as? String == "b42")
            #expect((version?["attributes"] as? [String: Any])?["releaseType"] as? String == "AFTER_APPROVAL")
            #expect((version?["attributes"] as? [String: Any])?["copyright"] as? String == "2026 Example GmbH")
            let infos = log["appInfoLocalizations"] as? [[String: Any]] ?? []
            #expect((infos.first { $0["id"] as? String == "il-en" }?["attributes"] as? [String: Any])?["subtitle"] as? String == "Coffee, timed")
            #expect(infos.contains { $0["info"] as? String == "info-edit" && ($0["attributes"] as? [String: Any])?["locale"] as? String == "de-DE" })
            let kinds = (log["releases"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(kinds == ["reviewSubmissions", "reviewSubmissionItems", "reviewSubmissions-update"])
            expectNoSecrets(result.output)
        }

        @Test func aDryRunPrintsEveryChangeAndMakesNone() async throws {
            try await server.reset(versionScenario)
            let folder = try metadataFolder("asc-deliver-dry")
            let result = try await lanes.run(["run", "upload_to_app_store", "app_identifier:com.example.brewer", "app_version:1.4.0",
                                        "build_number:42", "dry_run:true"], in: folder, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("would update en-US: description, keywords, release_notes"), "\(result.output)")
            #expect(result.output.contains("would add de-DE"), "\(result.output)")
            #expect(result.output.contains("would attach build 42"), "\(result.output)")
            #expect(result.output.contains("would update app info en-US: subtitle"), "\(result.output)")
            let requests = (try await server.log()["log"] as? [[String: Any]] ?? []).filter { $0["event"] as? String == "request" }
            #expect(!requests.isEmpty)
            #expect(requests.allSatisfy { $0["method"] as? String == "GET" }, "\(requests)")
        }

        @Test func keywordsOverAppleLimitFailBeforeAnyRequestNamingTheFile() async throws {
            try await server.reset(versionScenario)
            let folder = try metadataFolder("asc-deliver-long", keywords: String(repeating: "espresso,", count: 12))
            let result = try await lanes.run(["run", "upload_to_app_store", "app_identifier:com.example.brewer", "app_version:1.4.0"],
                                       in: folder, extraEnvironment: environment)
            #expect(result.status == 64, "\(result.output)")
            #expect(result.output.contains("fastlane/metadata/en-US/keywords.txt: 108 characters; App Store Connect allows 100"), "\(result.output)")
            let requests = (try await server.log()["log"] as? [[String: Any]] ?? []).filter { $0["event"] as? String == "request" }
            #expect(requests.isEmpty)
        }

        /// deliver globs metadata_path's locale folders, so a project without fastlane/metadata (an
        /// imported `upload_to_app_store` with no options) attaches the build and leaves the text alone.
        @Test func withoutAMetadataFolderTheBuildIsAttachedAndNoTextChanges() async throws {
            try await server.reset(versionScenario)
            let folder = LanesCommandLine.temporaryDirectory("asc-deliver-no-metadata")
            let result = try await lanes.run(["run", "upload_to_app_store", "app_identifier:com.example.brewer", "app_version:1.4.0",
                                        "build_number:42"], in: folder, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            #expect(result.output.contains("no metadata at fastlane/metadata"), "\(result.output)")
            let log = try await server.log()
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            #expect((log["versions"] as? [[String: Any]])?.first?["build"] as? String == "b42")
            let english = (log["versionLocalizations"] as? [[String: Any]] ?? []).first { $0["id"] as? String == "l-en" }
            #expect((english?["attributes"] as? [String: Any])?["description"] as? String == "Old text.")
        }

        @Test func lanesAscListsBuildsAppsAndTheKey() async throws {
            let builds = ["7", "99", "100"].enumerated().map {
                LocalAppStoreConnect.build("b\($0.offset)", version: "1.4.0", number: $0.element, uploaded: "2026-11-2\($0.offset)T10:00:00Z")
            }
            try await server.reset(["apps": [LocalAppStoreConnect.otherApp, LocalAppStoreConnect.app], "builds": builds, "pageSize": 2])
            let directory = LanesCommandLine.temporaryDirectory("asc-cli")
            let listed = try await lanes.run(["asc", "builds", "com.example.brewer", "--version", "1.4.0", "--json"], in: directory, extraEnvironment: environment)
            #expect(listed.status == 0, "\(listed.output)")
            let array = try #require(try JSONSerialization.jsonObject(with: Data(listed.standardOutput.utf8)) as? [[String: Any]], "\(listed.output)")
            #expect(array.compactMap { $0["build_number"] as? String } == ["100", "99", "7"])
            let apps = try await lanes.run(["asc", "apps"], in: directory, extraEnvironment: environment)
            #expect(apps.standardOutput.contains("1234567890  com.example.brewer  Brewer"), "\(apps.output)")
            let whoami = try await lanes.run(["asc", "whoami", "--json"], in: directory, extraEnvironment: environment)
            #expect(whoami.standardOutput.contains(#""key_id":"\#(LocalAppStoreConnect.keyID)""#), "\(whoami.output)")
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            for result in [listed, apps, whoami] { expectNoSecrets(result.output) }
        }

        /// A real signed profile (Tests/LanesSigningTests/Fixtures) for works.sth.brewer.staging, valid until 2035.
        var fixtureProfile: Data {
            get throws {
                try Data(contentsOf: LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesSigningTests/Fixtures/profiles/Brewer_Staging.mobileprovision"))
            }
        }

        func signingScenario(profiles: [[String: Any]]) throws -> [String: Any] {
            ["bundleIds": [["id": "bid1", "attributes": ["identifier": "works.sth.brewer.staging", "name": "Brewer Staging", "platform": "IOS"]],
                           ["id": "bid2", "attributes": ["identifier": "works.sth.brewer.staging.widget", "name": "Widget", "platform": "IOS"]]],
             "profiles": profiles, "profileContent": try fixtureProfile.base64EncodedString(),
             "certificates": [["id": "cert1", "attributes": ["certificateType": "DISTRIBUTION", "name": "Apple Distribution"]],
                              ["id": "cert2", "attributes": ["certificateType": "DEVELOPMENT", "name": "Apple Development"]]],
             "devices": [["id": "d1", "attributes": ["name": "QA iPhone", "udid": "00008030-001A2B3C4D5E6F70", "platform": "IOS", "status": "ENABLED"]],
                         ["id": "d2", "attributes": ["name": "Old iPad", "udid": "0000-OLD", "platform": "IOS", "status": "DISABLED"]]]]
        }

        @Test func getProvisioningProfileDownloadsChecksAndInstalls() async throws {
            try await server.reset(try signingScenario(profiles: [["id": "p1", "bundle": "bid1", "attributes": [
                "name": "Brewer_Staging", "profileType": "IOS_APP_ADHOC", "profileState": "ACTIVE",
                "profileContent": try fixtureProfile.base64EncodedString(), "expirationDate": "2035-01-01T00:00:00Z"]]]))
            let folder = LanesCommandLine.temporaryDirectory("asc-sigh")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let result = try await lanes.run(["run", "get_provisioning_profile", "app_identifier:works.sth.brewer.staging", "adhoc:true", "readonly:true",
                                        "output_path:profiles", "--json"], in: folder, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            let written = try Data(contentsOf: folder.appendingPathComponent("profiles/AdHoc_works.sth.brewer.staging.mobileprovision"))
            #expect(written == (try fixtureProfile))
            #expect(result.standardOutput.contains("7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42"), "installed under its UUID: \(result.output)")
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            expectNoSecrets(result.output)
        }

        @Test func aMissingProfileIsCreatedWithTheCertificatesAndEnabledDevices() async throws {
            try await server.reset(try signingScenario(profiles: []))
            let folder = LanesCommandLine.temporaryDirectory("asc-sigh-create")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let result = try await lanes.run(["run", "get_provisioning_profile", "app_identifier:works.sth.brewer.staging", "adhoc:true"],
                                       in: folder, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            let created = try #require((try await server.log()["createdProfiles"] as? [[String: Any]])?.first)
            #expect(created["type"] as? String == "IOS_APP_ADHOC")
            #expect(created["certificates"] as? [String] == ["cert1"])
            #expect(created["devices"] as? [String] == ["d1"])
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        @Test func readonlyWithoutAProfileFailsWithoutCreating() async throws {
            try await server.reset(try signingScenario(profiles: []))
            let result = try await lanes.run(["run", "get_provisioning_profile", "app_identifier:works.sth.brewer.staging", "readonly:true"],
                                       in: LanesCommandLine.temporaryDirectory("asc-sigh-readonly"), extraEnvironment: environment)
            #expect(result.status == 78, "\(result.output)")
            #expect(result.output.contains("no active IOS_APP_STORE profile for works.sth.brewer.staging"), "\(result.output)")
            #expect((try await server.log()["createdProfiles"] as? [Any])?.isEmpty == true)
        }

        @Test func registerDevicesAddsOnlyNewUDIDsFromApplesFile() async throws {
            try await server.reset(try signingScenario(profiles: []))
            let folder = LanesCommandLine.temporaryDirectory("asc-devices")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            try "Device ID\tDevice Name\tDevice Platform\n00008030-001A2B3C4D5E6F70\tQA iPhone\tios\n00008101-000A1B2C3D4E5F60\tDesigner iPhone\tios\n"
                .write(to: folder.appendingPathComponent("devices.txt"), atomically: true, encoding: .utf8)
            let result = try await lanes.run(["run", "register_devices", "devices_file:devices.txt", "--json"], in: folder, extraEnvironment: environment)
            #expect(result.status == 0, "\(result.output)")
            let devices = try await server.log()["devices"] as? [[String: Any]] ?? []
            #expect(devices.count == 3)
            #expect(devices.contains { ($0["attributes"] as? [String: Any])?["udid"] as? String == "00008101-000A1B2C3D4E5F60" })
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        /// build_app after app_store_connect_api_key: xcodebuild gets the lane's key as -authenticationKey*
        /// (through the recording stand-in of LanesCLITests), from a file that is gone when the lane ends.
        @Test func buildAppGetsTheLanesKeyForProvisioningUpdates() async throws {
            let folder = LanesCommandLine.temporaryDirectory("asc-build-app")
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
            let record = folder.appendingPathComponent("xcodebuild-calls.txt")
            let base64 = Data(server.keyPEM.utf8).base64EncodedString()
            try """
            import Lanes

            let lanes = Lanefile {
                Lane("beta", "Build with the lane's key") {
                    try await appStoreConnectApiKey(keyID: "\(LocalAppStoreConnect.keyID)", issuerID: "\(LocalAppStoreConnect.issuer)",
                                                    keyContent: try secret("ASC_KEY_BASE64"), isKeyContentBase64: true)
                    try await buildApp(workspace: "Brewer.xcworkspace", scheme: "Brewer", exportMethod: .adHoc, allowProvisioningUpdates: true)
                }
            }
            """.write(to: folder.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
            let result = try await lanes.run(["beta"], in: folder, extraEnvironment: [
                "ASC_KEY_BASE64": base64,
                // The stand-in first; the rest of PATH still finds swiftc for the Lanefile.
                "PATH": LanesCommandLine.fixtures.appendingPathComponent("xcodebuild-standin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
                "XCODEBUILD_RECORD": record.path,
                "XCODEBUILD_IPA": LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesBuildTests/Fixtures/ipa/Brewer-Staging.ipa").path,
            ])
            #expect(result.status == 0, "\(result.output)")
            let archive = try String(contentsOf: record, encoding: .utf8).components(separatedBy: "\n\n").first?.split(separator: "\n").map(String.init) ?? []
            let keyPath = try #require(archive.firstIndex(of: "-authenticationKeyPath").map { archive[$0 + 1] }, "\(archive)")
            #expect(archive.firstIndex(of: "-authenticationKeyID").map { archive[$0 + 1] } == LocalAppStoreConnect.keyID)
            #expect(archive.firstIndex(of: "-authenticationKeyIssuerID").map { archive[$0 + 1] } == LocalAppStoreConnect.issuer)
            #expect(!FileManager.default.fileExists(atPath: keyPath), "the key file outlived the lane")
            expectNoSecrets(result.output)
        }
    }
}
