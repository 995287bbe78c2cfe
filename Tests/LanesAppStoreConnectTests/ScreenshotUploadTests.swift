import Foundation
import LanesAppStoreConnect
import LanesTestSupport
import LanesUpload
import Testing
import LanesHTTP

/// The screenshot flow through the client, with a recording sleeper: processing waits, a file
/// already on App Store Connect, and Apple refusing an image.
extension LocalAppStoreConnectTests {
    @Suite(.timeLimit(.minutes(10))) struct ScreenshotUploadTests {
        let server: LocalAppStoreConnect

        init() async throws { server = try await LocalAppStoreConnect.shared.value.get() }

        func client(_ sleeper: RecordingSleeper, secrets: SecretList = SecretList()) throws -> AppStoreConnectClient {
            let key = try AppStoreConnectKey(keyID: LocalAppStoreConnect.keyID, issuerID: LocalAppStoreConnect.issuer, keyContent: server.keyPEM)
            return AppStoreConnectClient(key: key, baseURL: HTTPURL(server.base)!, registerSecret: secrets.add, sleeper: sleeper)
        }

        /// Version v1 with an en-US localization whose 6.5" set holds `existing` (a checksum).
        func scenario(existing: String, extra: [String: Any]) async throws {
            try await server.reset([
                "apps": [LocalAppStoreConnect.app],
                "versions": [["id": "v1", "app": "1234567890", "attributes": ["platform": "IOS", "versionString": "2.0",
                                                                             "appStoreState": "PREPARE_FOR_SUBMISSION", "appVersionState": "PREPARE_FOR_SUBMISSION"]]],
                "versionLocalizations": [["id": "l-en", "version": "v1", "attributes": ["locale": "en-US"]]],
                "screenshotSets": [["id": "set-65", "localization": "l-en", "attributes": ["screenshotDisplayType": "APP_IPHONE_65"]]],
                "screenshots": [["id": "shot-1", "set": "set-65", "attributes": ["fileName": "1.png", "fileSize": 100, "sourceFileChecksum": existing,
                                                                                "assetDeliveryState": ["state": "COMPLETE"]]]],
            ].merging(extra) { $1 })
        }

        /// Two 6.5" screenshots in en-US.
        func files() throws -> (folder: URL, first: URL) {
            let folder = LanesCommandLine.temporaryDirectory("shots-client")
            let english = folder.appendingPathComponent("en-US")
            try FileManager.default.createDirectory(at: english, withIntermediateDirectories: true)
            for index in 1...2 {
                try ScreenshotFixture.png(width: 1242, height: 2688, seed: UInt64(index)).write(to: english.appendingPathComponent("\(index).png"))
            }
            return (folder, english.appendingPathComponent("1.png"))
        }

        func release(_ folder: URL, overwrite: Bool = false) throws -> AppStoreRelease {
            AppStoreRelease(version: "2.0", platform: .ios, metadata: nil, buildNumber: nil, submitForReview: false, automaticRelease: nil,
                            phasedRelease: false, dryRun: false,
                            screenshots: ScreenshotUpload(screenshots: try AppStoreScreenshots.read(folder: folder.path), overwrite: overwrite, pollInterval: 5))
        }

        @Test func aFileAlreadyInItsSetIsSkippedAndProcessingIsWaitedForThroughTheSleeper() async throws {
            let (folder, first) = try files()
            try await scenario(existing: AssetUpload.md5(of: first.path).hex, extra: ["screenshotPolls": 2])
            let sleeper = RecordingSleeper(), secrets = SecretList()
            let outcome = try await client(sleeper, secrets: secrets).release(appID: "1234567890", try release(folder), progress: { _ in })
            #expect(secrets.all.contains { $0.contains("X-Amz-Signature=presigned0secret") }, "a part URL's query is a secret")
            #expect(outcome.changes == ["upload en-US APP_IPHONE_65 2.png"], "1.png is on App Store Connect already, and the set stays in name order")
            #expect(sleeper.all == [5, 5], "two looks while processing, each after the poll interval")
            let shots = try await server.log()["screenshots"] as? [[String: Any]] ?? []
            #expect(shots.count == 2)
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        @Test func aSetThatHadScreenshotsIsSortedByFileNameAfterwards() async throws {
            let (folder, _) = try files()
            try await scenario(existing: "00", extra: [:])
            // The set holds "1.png" already; with a file "0_intro.png" added it must come first.
            try ScreenshotFixture.png(width: 1242, height: 2688, seed: 9).write(to: folder.appendingPathComponent("en-US/0_intro.png"))
            try FileManager.default.removeItem(at: folder.appendingPathComponent("en-US/1.png"))
            try FileManager.default.removeItem(at: folder.appendingPathComponent("en-US/2.png"))
            let outcome = try await client(RecordingSleeper()).release(appID: "1234567890", try release(folder), progress: { _ in })
            #expect(outcome.changes == ["upload en-US APP_IPHONE_65 0_intro.png", "sort the screenshots of set set-65 by file name"])
            let names = (try await server.log()["screenshots"] as? [[String: Any]] ?? []).compactMap { ($0["attributes"] as? [String: Any])?["fileName"] as? String }
            #expect(names == ["0_intro.png", "1.png"])
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        @Test func aScreenshotAppleCouldNotProcessIsUploadedAgain() async throws {
            let (folder, _) = try files()
            try await scenario(existing: "00", extra: ["screenshotFailure": ["code": "IMAGE_TOOL_FAILURE", "description": "The image could not be read.", "times": 1]])
            _ = try await client(RecordingSleeper()).release(appID: "1234567890", try release(folder, overwrite: true), progress: { _ in })
            let log = try await server.log()
            let states = (log["screenshots"] as? [[String: Any]] ?? []).compactMap { (($0["attributes"] as? [String: Any])?["assetDeliveryState"] as? [String: Any])?["state"] as? String }
            #expect(states == ["COMPLETE", "COMPLETE"], "the failed one deleted and sent again")
            #expect((log["log"] as? [[String: Any]] ?? []).filter { $0["event"] as? String == "deleted-screenshot" }.count == 1)
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
        }

        @Test func aScreenshotAppleRefusesFiveTimesFailsWithItsReason() async throws {
            let (folder, _) = try files()
            try await scenario(existing: "00", extra: ["screenshotFailure": ["code": "IMAGE_TOOL_FAILURE", "description": "The image could not be read."]])
            let error = try await #require(throws: UploadError.self) {
                _ = try await client(RecordingSleeper()).release(appID: "1234567890", try release(folder, overwrite: true), progress: { _ in })
            }
            #expect(error.message.contains("en-US/1.png in 5 tries: IMAGE_TOOL_FAILURE: The image could not be read."), "\(error.message)")
            #expect((try await server.log()["log"] as? [[String: Any]] ?? []).contains { $0["event"] as? String == "deleted-set" && $0["id"] as? String == "set-65" })
        }
    }
}
