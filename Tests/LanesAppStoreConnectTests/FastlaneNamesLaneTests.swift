import Foundation
import LanesTestSupport
import Testing

/// Issue 33's criterion: a lane written with fastlane's names and only what a fastlane user writes
/// (a scheme) archives and exports for the App Store, runs xcodebuild test, uploads that build to
/// TestFlight with What to Test and sends the same build to App Store review: gym, scan, pilot and
/// deliver against the recording xcodebuild/xcrun stand-ins and the local App Store Connect.
extension LocalAppStoreConnectTests {
    @Suite(.timeLimit(.minutes(10)), .tags(.live)) struct FastlaneNamesLaneTests {
        let server: LocalAppStoreConnect
        let lanes = LanesCommandLine()

        init() async throws { server = try await LocalAppStoreConnect.shared.value.get() }

        static let root = LanesCommandLine.repositoryRoot
        static let standIn = LanesCommandLine.fixtures.appendingPathComponent("xcodebuild-standin").path
        /// works.sth.brewer.staging 2.4.0 (118).
        static let ipa = root.appendingPathComponent("Tests/LanesBuildTests/Fixtures/ipa/Brewer-Staging.ipa").path
        static let swiftDirectory = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/swiftc") }.map(String.init) ?? "/usr/bin"

        static let lanefile = #"""
            import Lanes

            let lanes = Lanefile {
                Lane("release", "Archive, test, TestFlight and App Store review, as a Fastfile says it") {
                    try await gym(scheme: "Brewer")
                    try await scan(scheme: "Brewer")
                    try await pilot(changelog: "Fixes the timer")
                    try await deliver(submitForReview: true, skipBinaryUpload: true)
                }
            }
            """#

        @Test func aLaneWithFastlanesNamesArchivesTestsUploadsAndSubmitsTheSameBuild() async throws {
            let project = LanesCommandLine.temporaryDirectory("fastlane-names-lane")
            defer { try? FileManager.default.removeItem(at: project) }
            try FileManager.default.copyItem(at: Self.root.appendingPathComponent("Tests/LanesXcodeTests/Fixtures/Brewer.xcodeproj"),
                                             to: project.appendingPathComponent("Brewer.xcodeproj"))
            try Self.lanefile.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
            let english = project.appendingPathComponent("fastlane/metadata/en-US")
            try FileManager.default.createDirectory(at: english, withIntermediateDirectories: true)
            try "Brew better coffee.\n".write(to: english.appendingPathComponent("description.txt"), atomically: true, encoding: .utf8)
            let testLog = project.appendingPathComponent("test.log")
            try """
                Test Case '-[BrewerTests.RecipeTests testRatio]' started.
                Test Case '-[BrewerTests.RecipeTests testRatio]' passed (0.002 seconds).
                \t Executed 1 test, with 0 failures (0 unexpected) in 0.002 (0.003) seconds

                """.write(to: testLog, atomically: true, encoding: .utf8)
            let devices = project.appendingPathComponent("devices.json")
            try """
                {"devices": {"com.apple.CoreSimulator.SimRuntime.iOS-17-5": [
                  {"udid": "C0FFEE17-0000-0000-0000-000000000003", "isAvailable": true, "state": "Shutdown", "name": "iPhone 15",
                   "deviceTypeIdentifier": "com.apple.CoreSimulator.SimDeviceType.iPhone-15"}]}}
                """.write(to: devices, atomically: true, encoding: .utf8)

            try await server.reset([
                "apps": [["id": "1234567890", "attributes": ["name": "Brewer", "bundleId": "works.sth.brewer.staging", "sku": "BREWER",
                                                             "primaryLocale": "en-US"]]],
                "processingPolls": 0,
                "versions": [["id": "v1", "app": "1234567890",
                              "attributes": ["platform": "IOS", "versionString": "2.4.0", "appStoreState": "PREPARE_FOR_SUBMISSION",
                                             "appVersionState": "PREPARE_FOR_SUBMISSION"]]],
                "versionLocalizations": [["id": "l-en", "version": "v1", "attributes": ["locale": "en-US", "description": "Old text."]]],
            ])
            let calls = project.appendingPathComponent("xcodebuild-calls.txt")
            let result = try await lanes.run(["release"], in: project, extraEnvironment: [
                "PATH": "\(Self.standIn):\(Self.swiftDirectory):/usr/bin:/bin", "XCODEBUILD_RECORD": calls.path, "XCODEBUILD_IPA": Self.ipa,
                "XCODEBUILD_TEST_LOG": testLog.path, "SIMCTL_DEVICES_JSON": devices.path,
                "APP_STORE_CONNECT_API_KEY_KEY_ID": LocalAppStoreConnect.keyID, "APP_STORE_CONNECT_API_KEY_ISSUER_ID": LocalAppStoreConnect.issuer,
                "APP_STORE_CONNECT_API_KEY_KEY": Data(server.keyPEM.utf8).base64EncodedString(),
                "APP_STORE_CONNECT_API_KEY_IS_KEY_CONTENT_BASE64": "true", "LANES_ASC_API_URL": server.base,
            ])
            #expect(result.status == 0, "\(result.output)")

            // gym and scan: xcodebuild's argv, the project and scheme found, the App Store export, the simulator scan picks.
            let root = project.path
            let made = try String(contentsOf: calls, encoding: .utf8).components(separatedBy: "\n\n").filter { !$0.isEmpty }
                .map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
            #expect(made.count == 3, "\(made)")
            #expect(made.first == ["-project", "\(root)/Brewer.xcodeproj", "-scheme", "Brewer", "-destination", "generic/platform=iOS",
                                   "-archivePath", "\(root)/.lanes/build/Brewer.xcarchive", "-derivedDataPath", "\(root)/.lanes/DerivedData",
                                   "-resultBundlePath", "\(root)/.lanes/results/Brewer-archive.xcresult", "archive"], "\(made)")
            #expect(made.dropFirst().first?.first == "-exportArchive", "\(made)")
            let plist = try String(contentsOfFile: "\(root)/.lanes/build/Brewer-ExportOptions.plist", encoding: .utf8)
            #expect(plist.contains("<key>method</key>\n\t<string>app-store</string>"), "\(plist)")
            let test = made.last ?? []
            #expect(Array(test.prefix(6)) == ["-project", "\(root)/Brewer.xcodeproj", "-scheme", "Brewer",
                                              "-destination", "platform=iOS Simulator,id=C0FFEE17-0000-0000-0000-000000000003"], "\(test)")
            #expect(test.suffix(2) == ["build", "test"], "\(test)")

            // pilot: the .ipa gym made, uploaded as iOS 2.4.0 (118), What to Test set.
            let log = try await server.log()
            let serverErrors = try await server.errors(); #expect(serverErrors.isEmpty, "\(serverErrors)")
            let events = log["log"] as? [[String: Any]] ?? []
            #expect(events.contains { $0["event"] as? String == "committed" }, "\(events)")
            let uploads = events.filter { $0["path"] as? String == "/v1/buildUploads" && $0["method"] as? String == "POST" }
            #expect(uploads.count == 1, "one binary upload (deliver skips its own): \(uploads)")
            let uploaded = (log["builds"] as? [[String: Any]] ?? []).first { ($0["attributes"] as? [String: Any])?["version"] as? String == "118" }
            #expect(uploaded != nil, "\(String(describing: log["builds"]))")
            let whatToTest = log["localizations"] as? [[String: Any]] ?? []
            #expect((whatToTest.first?["attributes"] as? [String: Any])?["whatsNew"] as? String == "Fixes the timer", "\(whatToTest)")

            // deliver: the same build attached to version 2.4.0 and submitted for review.
            let version = (log["versions"] as? [[String: Any]])?.first
            #expect(version?["build"] as? String == uploaded?["id"] as? String, "\(String(describing: version))")
            let kinds = (log["releases"] as? [[String: Any]] ?? []).compactMap { $0["kind"] as? String }
            #expect(kinds == ["reviewSubmissions", "reviewSubmissionItems", "reviewSubmissions-update"], "\(kinds)")
            #expect(!result.output.contains("eyJ"), "a JWT was printed")
        }
    }
}
