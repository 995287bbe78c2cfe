import Foundation
import LanesPlatform
import LanesTestSupport
import Testing
import LanesHTTP

/// Screenshots, the binary, several What to Test locales, notify_external_testers, in-house keys and
/// cancelling a TestFlight wait, through `lanes`, against the local App Store Connect.
extension LocalAppStoreConnectTests.AppStoreConnectStepTests {
    /// fastlane's screenshots folder: en-US has framed and plain iPhone 6.9" files (the framed ones
    /// win), de-DE one 13" iPad JPEG bigger than a part, so it goes in two.
    func screenshotsFolder(_ project: URL) throws -> [String: URL] {
        let english = project.appendingPathComponent("fastlane/screenshots/en-US")
        let german = project.appendingPathComponent("fastlane/screenshots/de-DE")
        for folder in [english, german] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        var files: [String: URL] = [:]
        for (index, name) in ["10_settings_framed.png", "2_home_framed.png", "2_home.png"].enumerated() {
            files[name] = english.appendingPathComponent(name)
            try ScreenshotFixture.png(width: 1290, height: 2796, padding: 5000, seed: UInt64(index + 10)).write(to: files[name]!)
        }
        files["ipad.jpg"] = german.appendingPathComponent("ipad.jpg")
        try ScreenshotFixture.jpeg(width: 2064, height: 2752, padding: 1_300_000).write(to: files["ipad.jpg"]!)
        return files
    }

    /// The file's MD5 as OpenSSL's command computes it (not lanes' code).
    func md5(_ url: URL) async throws -> String {
        try await LocalAppStoreConnect.openssl(["dgst", "-md5", "-r", url.path]).split(separator: " ").first.map(String.init) ?? ""
    }

    @Test func uploadToAppStoreUploadsTheBinaryAndTheScreenshotsThroughTheUploadOperations() async throws {
        var scenario = versionScenario
        // en-US already has a 6.9" set with one screenshot: overwrite_screenshots deletes it first.
        scenario["screenshotSets"] = [["id": "set-old", "localization": "l-en", "attributes": ["screenshotDisplayType": "APP_IPHONE_67"]]]
        scenario["screenshots"] = [["id": "shot-old", "set": "set-old", "attributes": ["fileName": "old.png", "fileSize": 10, "sourceFileChecksum": "00",
                                                                                      "assetDeliveryState": ["state": "COMPLETE"]]]]
                try await server.reset(scenario)
        let project = try metadataFolder("asc-deliver-media")
        let files = try screenshotsFolder(project)
        let ipa = project.appendingPathComponent("Brewer.ipa")
        try Data(ScreenshotFixture.noise(1_200_000, seed: 43)).write(to: ipa)
        let result = try await lanes.run(["run", "upload_to_app_store", "app_identifier:com.example.brewer", "app_version:1.4.0", "build_number:43",
                                    "ipa:Brewer.ipa", "overwrite_screenshots:true", "wait_processing_interval:0", "--json"],
                                   in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        let log = try await server.log()
        let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")

        // The binary: uploaded in parts, committed, processed, and attached to the version.
        let committed = (log["log"] as? [[String: Any]] ?? []).first { $0["event"] as? String == "committed" }
        #expect(committed?["md5"] as? String == (try await md5(ipa)))
        let uploadedBuild = (log["builds"] as? [[String: Any]] ?? []).first { ($0["attributes"] as? [String: Any])?["version"] as? String == "43" }
        let version = (log["versions"] as? [[String: Any]])?.first
        #expect(uploadedBuild?["id"] != nil && version?["build"] as? String == uploadedBuild?["id"] as? String, "\(String(describing: version))")

        // Screenshots: the old set gone, one set per display type, the framed files in deliver's order.
        let sets = log["screenshotSets"] as? [[String: Any]] ?? []
        #expect(!sets.contains { $0["id"] as? String == "set-old" })
        let types = Dictionary(sets.map { ($0["localization"] as? String ?? "", ($0["attributes"] as? [String: Any])?["screenshotDisplayType"] as? String ?? "") }) { $1 }
        let german = (log["versionLocalizations"] as? [[String: Any]] ?? []).first { ($0["attributes"] as? [String: Any])?["locale"] as? String == "de-DE" }
        #expect(types["l-en"] == "APP_IPHONE_67")
        #expect(types[german?["id"] as? String ?? "?"] == "APP_IPAD_PRO_3GEN_129")
        let shots = log["screenshots"] as? [[String: Any]] ?? []
        let attributes = shots.compactMap { $0["attributes"] as? [String: Any] }
        #expect(attributes.compactMap { $0["fileName"] as? String } == ["ipad.jpg", "2_home_framed.png", "10_settings_framed.png"], "de-DE first, then en-US in deliver's order")
        #expect(attributes.allSatisfy { ($0["assetDeliveryState"] as? [String: Any])?["state"] as? String == "COMPLETE" }, "\(attributes)")
        for (name, url) in files where name != "2_home.png" {
            let checksum = try await md5(url)
            #expect(attributes.contains { $0["fileName"] as? String == name && $0["sourceFileChecksum"] as? String == checksum }, "\(name)")
        }
        let parts = (log["log"] as? [[String: Any]] ?? []).filter { $0["event"] as? String == "part" }
        let expectedParts = 2 + 1 + 1 + 2
        #expect(parts.count == expectedParts, "the ipa and the iPad JPEG in two parts each, the PNGs in one: \(parts.count)")
        #expect(!result.output.contains("presigned"), "a part URL's signature was printed")
        expectNoSecrets(result.output)
        expectNoSecretsInFiles(under: [project, lanes.cacheDirectory])
    }

    @Test func aScreenshotOfAnUnknownSizeFailsBeforeAnyRequest() async throws {
        try await server.reset(versionScenario)
        let project = try metadataFolder("asc-deliver-badshot")
        let english = project.appendingPathComponent("fastlane/screenshots/en-US")
        try FileManager.default.createDirectory(at: english, withIntermediateDirectories: true)
        try ScreenshotFixture.png(width: 1000, height: 700).write(to: english.appendingPathComponent("odd.png"))
        let result = try await lanes.run(["run", "upload_to_app_store", "app_identifier:com.example.brewer", "app_version:1.4.0"],
                                   in: project, extraEnvironment: environment)
        #expect(result.status == 64, "\(result.output)")
        #expect(result.output.contains("fastlane/screenshots/en-US/odd.png: 1000x700 is not a screenshot size App Store Connect takes"), "\(result.output)")
        let requests = (try await server.log()["log"] as? [[String: Any]] ?? []).filter { $0["event"] as? String == "request" }
        #expect(requests.isEmpty)
    }

    @Test func aDryRunNamesEachScreenshotAndTheBinaryAndSendsOnlyGETs() async throws {
        try await server.reset(versionScenario)
        let project = try metadataFolder("asc-deliver-media-dry")
        _ = try screenshotsFolder(project)
        try Data(ScreenshotFixture.noise(1000, seed: 4)).write(to: project.appendingPathComponent("Brewer.ipa"))
        let result = try await lanes.run(["run", "upload_to_app_store", "app_identifier:com.example.brewer", "app_version:1.4.0", "build_number:43",
                                    "ipa:Brewer.ipa", "dry_run:true"], in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        for line in ["Brewer.ipa as 1.4.0 (43)", "would create the APP_IPHONE_67 screenshot set of en-US",
                     "would upload en-US APP_IPHONE_67 2_home_framed.png", "would upload de-DE APP_IPAD_PRO_3GEN_129 ipad.jpg",
                     "would attach build 43"] {
            #expect(result.output.contains(line), "\(line)\n\(result.output)")
        }
        #expect(!result.output.contains("2_home.png"), "a plain file beside framed ones is skipped")
        let requests = (try await server.log()["log"] as? [[String: Any]] ?? []).filter { $0["event"] as? String == "request" }
        #expect(requests.allSatisfy { $0["method"] as? String == "GET" }, "\(requests)")
    }

    @Test func localizedBuildInfoSetsEachLocaleAndNotifyFalseTurnsAutoNotifyOff() async throws {
        try await server.reset(["apps": [LocalAppStoreConnect.app],
                          "groups": [["id": "g2", "app": "1234567890", "attributes": ["name": "Public", "isInternalGroup": false]]]])
        let folder = LanesCommandLine.temporaryDirectory("asc-upload-locales")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ipa = folder.appendingPathComponent("Brewer.ipa")
        try Data(ScreenshotFixture.noise(300_000, seed: 7)).write(to: ipa)
        let result = try await lanes.run(["run", "upload_to_testflight", "ipa_path:\(ipa.path)", "app_identifier:com.example.brewer",
                                    "app_version:1.4.0", "build_number:44", "localized_build_info:en-US=Try the new login,de-DE=Neues Login testen",
                                    "changelog:Try the new login (US)", "notify_external_testers:false", "groups:Public",
                                    "wait_processing_interval:0", "--json"], in: folder, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        let log = try await server.log()
        let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        let texts = Dictionary((log["localizations"] as? [[String: Any]] ?? []).compactMap { item -> (String, String)? in
            guard let attributes = item["attributes"] as? [String: Any], let locale = attributes["locale"] as? String else { return nil }
            return (locale, attributes["whatsNew"] as? String ?? "")
        }) { $1 }
        #expect(texts == ["en-US": "Try the new login (US)", "de-DE": "Neues Login testen"], "changelog wins for changelog_locale")
        #expect((log["betaDetails"] as? [String: Bool])?.values.first == false, "\(String(describing: log["betaDetails"]))")
        // autoNotifyEnabled is off before the build reaches the external group.
        let requests = (log["log"] as? [[String: Any]] ?? []).filter { $0["event"] as? String == "request" }.map { "\($0["method"] ?? "") \($0["path"] ?? "")" }
        let patched = requests.firstIndex { $0.hasPrefix("PATCH /v1/buildBetaDetails/") }, grouped = requests.firstIndex { $0.hasSuffix("/relationships/builds") }
        #expect(patched != nil && grouped != nil && patched! < grouped!, "\(requests)")
        expectNoSecrets(result.output)
    }

    @Test func withoutAKeyTheStepNamesTheVariablesAndSendsNothing() async throws {
        try await server.reset(["apps": [LocalAppStoreConnect.app]])
        let result = try await lanes.run(["run", "latest_testflight_build_number", "app_identifier:com.example.brewer"],
                                   in: LanesCommandLine.temporaryDirectory("asc-no-key"), extraEnvironment: ["LANES_ASC_API_URL": server.base])
        #expect(result.status == 78, "\(result.output)")
        #expect(result.output.contains("APP_STORE_CONNECT_API_KEY_KEY_ID"), "\(result.output)")
        #expect(result.output.contains("app_store_connect_api_key"), "\(result.output)")
        #expect((try await server.log()["log"] as? [[String: Any]] ?? []).isEmpty)
    }

    @Test func anInHouseKeySignsForTheEnterpriseAudience() async throws {
        try await server.reset(["apps": [LocalAppStoreConnect.app], "builds": [LocalAppStoreConnect.build("b1", version: "2.0", number: "8")], "inHouse": true])
        let directory = LanesCommandLine.temporaryDirectory("asc-in-house")
        let inHouse = try await lanes.run(["run", "latest_testflight_build_number", "app_identifier:com.example.brewer"], in: directory,
                                    extraEnvironment: environment.merging(["APP_STORE_CONNECT_API_KEY_IN_HOUSE": "true"]) { $1 })
        #expect(inHouse.status == 0, "\(inHouse.output)")
        #expect(inHouse.output.contains("build number 8"), "\(inHouse.output)")
        // The same key without in_house signs for App Store Connect, which the enterprise server refuses.
        let plain = try await lanes.run(["run", "latest_testflight_build_number", "app_identifier:com.example.brewer"], in: directory, extraEnvironment: environment)
        #expect(plain.status != 0, "\(plain.output)")
        #expect(try await server.errors().contains { $0.contains("bad JWT") && $0.lowercased().contains("audience") })
        expectNoSecrets(inHouse.output + plain.output)
    }

    @Test func lanesUploadToTestflightStopsWaitingForProcessingOnSIGINT() async throws {
        try await server.reset(["apps": [LocalAppStoreConnect.app], "processingPolls": 1_000_000])
        let folder = LanesCommandLine.temporaryDirectory("asc-upload-cancel")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let ipa = folder.appendingPathComponent("Brewer.ipa")
        try Data(ScreenshotFixture.noise(10_000, seed: 8)).write(to: ipa)
        let running = try lanes.start(["upload", ipa.path, "--to", "testflight://1234567890", "--app-version", "1.4.0", "--build-number", "45",
                                       "--changelog", "Waits", "--wait-processing-interval", "600"], in: folder, extraEnvironment: environment)
        // The step is in its wait once App Store Connect has been asked for the build (bounded: 600 looks, 120 s).
        var polled = false
        for _ in 0..<600 where !polled {
            polled = (try await server.log()["log"] as? [[String: Any]] ?? []).contains { $0["path"] as? String == "/v1/builds" }
            if !polled { try? await Task.sleep(for: .seconds(0.2)) }
        }
        let signalled = Date()
        kill(running.pid, SIGINT)
        let result = await running.finish()
        let elapsed = Date().timeIntervalSince(signalled)
        #expect(polled, "the build was polled: \(result.output)")
        #expect(elapsed < 2, "ended \(elapsed) s after SIGINT")
        #expect(result.status == 130, "\(result.output)")
        expectNoSecrets(result.output)
    }
}
