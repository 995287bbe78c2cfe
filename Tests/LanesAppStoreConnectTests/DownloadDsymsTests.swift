import Foundation
import Lanes
import Synchronization
import LanesPlatform
import LanesTestSupport
import Testing

/// `download_dsyms` against the local App Store Connect (every request and answer checked against
/// Apple's OpenAPI description): the builds fastlane's action would pick, each bundle's dSYMUrl
/// fetched without the API token, the waits on the lane's clock.
extension LocalAppStoreConnectTests {
    @Suite(.timeLimit(.minutes(10))) struct DownloadDsymsTests {
        let server: LocalAppStoreConnect

        init() async throws { server = try await LocalAppStoreConnect.shared.value.get() }

        func context(_ temp: TemporaryDirectory, host: TestHost = TestHost(), lines: LineRecorder = LineRecorder(),
                     extra: [String: String] = [:]) -> StepContext {
            let redactor = Redactor()
            let variables = ["LANES_ASC_API_URL": server.base, "APP_STORE_CONNECT_API_KEY_KEY_ID": LocalAppStoreConnect.keyID,
                             "APP_STORE_CONNECT_API_KEY_ISSUER_ID": LocalAppStoreConnect.issuer,
                             "APP_STORE_CONNECT_API_KEY_KEY_FILEPATH": server.keyPath].merging(extra) { $1 }
            return StepContext(environment: Environment(variables: variables, redactor: redactor), projectDirectory: temp.path,
                               stateDirectory: temp.path + "/state", log: StepLog(redactor: redactor) { lines.append($0) },
                               cleanups: CleanupStack(), processes: NoChildProcesses(), host: host)
        }

        /// A build with one bundle per (bundle id, dSYM text); nil text: the bundle has no symbols.
        static func build(_ id: String, version: String, number: String, uploaded: String, platform: String = "IOS",
                          bundles: [(String, String?)], readyAfterPolls: Int = 0) -> [String: Any] {
            var build = LocalAppStoreConnect.build(id, version: version, number: number, uploaded: uploaded)
            build["platform"] = platform
            build["bundles"] = bundles.enumerated().map { index, bundle -> [String: Any] in
                var item: [String: Any] = ["id": "\(id)-bundle\(index)", "bundleId": bundle.0, "includesSymbols": bundle.1 != nil,
                                           "readyAfterPolls": readyAfterPolls]
                if let text = bundle.1 { item["dsym"] = text }
                return item
            }
            return build
        }

        static var builds: [[String: Any]] {
            [build("b1", version: "1.0", number: "10", uploaded: "2026-11-01T10:00:00Z", bundles: [("com.example.brewer", "zip of 1.0 (10)")]),
             build("b2", version: "1.1", number: "11", uploaded: "2026-11-10T10:00:00Z", bundles: [("com.example.brewer", "zip of 1.1 (11)")]),
             build("b3", version: "1.1", number: "12", uploaded: "2026-11-20T10:00:00Z",
                   bundles: [("com.example.brewer", "zip of 1.1 (12)"), ("com.example.brewer.Clip", "clip zip of 1.1 (12)"), ("com.example.brewer.Widget", nil)]),
             build("t1", version: "1.1", number: "12", uploaded: "2026-11-21T10:00:00Z", platform: "TV_OS", bundles: [("com.example.brewer", "tv zip")])]
        }

        func run(_ arguments: StepArguments, _ context: StepContext) async throws -> DownloadedDSYMs {
            try await DownloadDsyms.resolve(arguments, environment: context.environment).run(in: context)
        }

        func contents(_ path: String) throws -> String { try String(contentsOfFile: path, encoding: .utf8) }

        @Test func versionAndBuildNumberWriteEachBundlesZipUnderFastlanesNameWithoutSendingTheToken() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            try await server.reset(["apps": [LocalAppStoreConnect.otherApp, LocalAppStoreConnect.app], "builds": Self.builds])
            let lines = LineRecorder()
            let context = self.context(temp, lines: lines)
            // fastlane's names and its leading-zero rule: 1.01 is 1.1.
            let result = try await run(["app_identifier": "com.example.brewer", "version": "1.01", "build_number": "12",
                                        "output_directory": "dsyms"], context)
            #expect(result.paths == [temp.path + "/dsyms/com.example.brewer-1.1-12.dSYM.zip", temp.path + "/dsyms/com.example.brewer.Clip-1.1-12.dSYM.zip"])
            #expect(try contents(result.paths[0]) == "zip of 1.1 (12)")
            #expect(try contents(result.paths[1]) == "clip zip of 1.1 (12)")
            #expect(result.latestUploadedDate == "2026-11-20T10:00:00Z")
            #expect(context.values[DownloadedDSYMPaths.self] == result.paths, "fastlane's lane_context DSYM_PATHS")
            // A presigned URL's signature is a credential: it never reaches the output.
            #expect(!lines.lines.isEmpty && !lines.lines.contains { $0.contains("secret") || $0.contains("Signature") }, "\(lines.lines)")

            // fastlane's refresh_dsyms: upload_symbols_to_crashlytics then uploads each zip download_dsyms wrote.
            let record = temp.path + "/upload-symbols-calls.txt"
            let tool = LanesCommandLine.fixtures.appendingPathComponent("argv-recorder/argv-recorder").path
            let uploading = StepContext(environment: context.environment, projectDirectory: temp.path, stateDirectory: temp.path + "/state",
                                        log: context.log, cleanups: CleanupStack(),
                                        processes: SubprocessRunner(baseEnvironment: ProcessInfo.processInfo.environment.merging(["ARGV_RECORD": record]) { $1 }),
                                        values: context.values)
            try await UploadSymbolsToCrashlytics.resolve(["gsp_path": "GoogleService-Info.plist", "binary_path": tool], environment: context.environment)
                .run(in: uploading)
            _ = await uploading.cleanups.runAll()
            #expect(try contents(record).split(separator: "\n").map(String.init)
                    == result.paths.map { "-gsp \(temp.path)/GoogleService-Info.plist -p ios \($0)" })

            let log = try await server.log()
            let events = log["log"] as? [[String: Any]] ?? []
            let downloads = events.filter { $0["event"] as? String == "dsym" }
            #expect(downloads.count == 2)
            #expect(downloads.allSatisfy { $0["authorization"] is NSNull || $0["authorization"] == nil }, "the API token went to the dSYM's address: \(downloads)")
            let query = try #require(events.first { $0["path"] as? String == "/v1/builds" }?["query"] as? [String: String])
            #expect(query["filter[preReleaseVersion.version]"] == "1.1")
            #expect(query["filter[version]"] == "12")
            #expect(query["filter[preReleaseVersion.platform]"] == "IOS")
            #expect(query["include"] == "preReleaseVersion,buildBundles")
            let errors = try await server.errors()
            #expect(errors.isEmpty, "\(errors)")
        }

        @Test func minVersionAndAfterUploadedDateNarrowTheWalkAsFastlanesDo() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            try await server.reset(["apps": [LocalAppStoreConnect.app], "builds": Self.builds, "pageSize": 1])
            // Every iOS build at or above 1.1, across pages; 1.0 is skipped, tvOS is another platform.
            let all = try await run(["app_identifier": "com.example.brewer", "min_version": "1.1"], context(temp))
            #expect(all.paths.map { ($0 as NSString).lastPathComponent }
                    == ["com.example.brewer-1.1-12.dSYM.zip", "com.example.brewer.Clip-1.1-12.dSYM.zip", "com.example.brewer-1.1-11.dSYM.zip"])
            // Uploaded after Nov 15 only: the walk stops at the first older build.
            let recent = try await run(["app_identifier": "com.example.brewer", "after_uploaded_date": "2026-11-15T00:00:00+00:00",
                                        "output_directory": "recent"], context(temp))
            #expect(recent.paths.count == 2)
            #expect(recent.paths.allSatisfy { $0.contains("-1.1-12.") })
            // latest: the newest build of the platform; appletvos reads TV_OS builds.
            let tv = try await run(["app_identifier": "com.example.brewer", "version": "latest", "platform": "appletvos",
                                    "output_directory": "tv"], context(temp))
            #expect(tv.paths == [temp.path + "/tv/com.example.brewer-1.1-12.dSYM.zip"])
            #expect(try contents(tv.paths[0]) == "tv zip")
            await #expect { try await run(["app_identifier": "com.example.brewer", "min_version": "one"], context(temp)) } throws: {
                "\($0)".contains("min_version one")
            }
            let errors = try await server.errors()
            #expect(errors.isEmpty, "\(errors)")
        }

        /// Apple has not made the dSYMs yet: without waiting nothing is written; with
        /// wait_for_dsym_processing the build is read again every 30 s of the lane's clock.
        @Test func waitForDsymProcessingLooksAgainEveryThirtySecondsOfTheLanesClock() async throws {
            let temp = try TemporaryDirectory()
            defer { temp.remove() }
            let pending = [Self.build("p1", version: "2.0", number: "20", uploaded: "2026-11-25T10:00:00Z",
                                      bundles: [("com.example.brewer", "zip of 2.0 (20)")], readyAfterPolls: 2)]
            try await server.reset(["apps": [LocalAppStoreConnect.app], "builds": pending])
            let unwaited = try await run(["app_identifier": "com.example.brewer", "version": "2.0"], context(temp))
            #expect(unwaited.paths.isEmpty)

            try await server.reset(["apps": [LocalAppStoreConnect.app], "builds": pending])
            let host = TestHost()
            let lines = LineRecorder()
            let waitingContext = context(temp, host: host, lines: lines)
            let waiting = Task { try await run(["app_identifier": "com.example.brewer", "version": "2.0", "wait_for_dsym_processing": true], waitingContext) }
            for _ in 0..<2 {
                await host.clock.waitForSleepers(1)
                #expect(host.clock.advanceToNextDeadline() == .seconds(30))
            }
            let result = try await waiting.value
            #expect(result.paths == [temp.path + "/com.example.brewer-2.0-20.dSYM.zip"])
            #expect(lines.lines.filter { $0.contains("waiting for the dSYMs") }.count == 2)
            let events = (try await server.log()["log"] as? [[String: Any]]) ?? []
            #expect(events.filter { ($0["path"] as? String)?.hasPrefix("/v1/builds/") == true }.count == 2, "the build read again once per wait")

            // Still not ready when wait_timeout (30 s) has passed: the step gives up without failing, as fastlane's does.
            let late = [Self.build("p1", version: "2.0", number: "20", uploaded: "2026-11-25T10:00:00Z",
                                   bundles: [("com.example.brewer", "zip of 2.0 (20)")], readyAfterPolls: 10)]
            try await server.reset(["apps": [LocalAppStoreConnect.app], "builds": late])
            let lateHost = TestHost()
            let lateContext = context(temp, host: lateHost)
            let givingUp = Task { try await run(["app_identifier": "com.example.brewer", "wait_for_dsym_processing": true, "wait_timeout": 30], lateContext) }
            for _ in 0..<2 {
                await lateHost.clock.waitForSleepers(1)
                lateHost.clock.advanceToNextDeadline()
            }
            #expect(try await givingUp.value.paths.isEmpty)
            let errors = try await server.errors()
            #expect(errors.isEmpty, "\(errors)")
        }
    }
}

/// A step's log lines, kept for a test to read.
final class LineRecorder: Sendable {
    private let kept = Mutex<[String]>([])
    func append(_ line: String) { kept.withLock { $0.append(line) } }
    var lines: [String] { kept.withLock { $0 } }
}
