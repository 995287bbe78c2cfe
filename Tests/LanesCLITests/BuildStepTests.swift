import Foundation
import LanesTestSupport
import Testing

/// build_app and run_tests through the real `lanes`, with a recording stand-in for xcodebuild (which
/// cannot exist on Linux) replaying recorded logs; build_swift_package and run_tests on SwiftPM for real.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct BuildStepTests {
    static let standIn = LanesCommandLine.fixtures.appendingPathComponent("xcodebuild-standin").path
    static let buildFixtures = LanesCommandLine.repositoryRoot.appendingPathComponent("Tests/LanesBuildTests/Fixtures")
    let lanes = LanesCommandLine()

    /// A project folder, the stand-in first on PATH, and the file its calls are recorded in.
    func xcodeProject(_ extra: [String: String] = [:]) -> (URL, [String: String], URL) {
        let directory = LanesCommandLine.temporaryDirectory("build-app")
        let record = directory.appendingPathComponent("xcodebuild-calls.txt")
        var environment = ["PATH": "\(Self.standIn):/usr/bin:/bin", "XCODEBUILD_RECORD": record.path,
                           "XCODEBUILD_IPA": Self.buildFixtures.appendingPathComponent("ipa/Brewer-Staging.ipa").path]
        environment.merge(extra) { $1 }
        return (directory, environment, record)
    }

    func calls(_ record: URL) throws -> [[String]] {
        try String(contentsOf: record, encoding: .utf8).components(separatedBy: "\n\n").filter { !$0.isEmpty }
            .map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    @Test func buildAppArchivesExportsAndChecksTheIpa() async throws {
        let (project, environment, record) = xcodeProject([
            "XCODEBUILD_ARCHIVE_LOG": Self.buildFixtures.appendingPathComponent("logs/archive-succeeded.log").path])
        let result = try await lanes.run(["run", "build_app", "workspace:Brewer.xcworkspace", "scheme:Brewer", "configuration:Staging",
                                    "export_method:ad-hoc", "output_directory:out", "output_name:App.ipa",
                                    "app_identifier:works.sth.brewer.staging"], in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        let root = project.path
        let made = try calls(record)
        #expect(made.count == 2)
        #expect(made.first == ["-workspace", "\(root)/Brewer.xcworkspace", "-scheme", "Brewer", "-configuration", "Staging",
                               "-destination", "generic/platform=iOS", "-archivePath", "\(root)/.lanes/build/Brewer-Staging.xcarchive",
                               "-derivedDataPath", "\(root)/.lanes/DerivedData",
                               "-resultBundlePath", "\(root)/.lanes/results/Brewer-Staging-archive.xcresult", "archive"])
        #expect(made.last == ["-exportArchive", "-archivePath", "\(root)/.lanes/build/Brewer-Staging.xcarchive",
                              "-exportPath", "\(root)/.lanes/build/Brewer-Staging-export",
                              "-exportOptionsPlist", "\(root)/.lanes/build/Brewer-Staging-ExportOptions.plist"])
        #expect(FileManager.default.fileExists(atPath: "\(root)/out/App.ipa"))
        #expect(FileManager.default.fileExists(atPath: "\(root)/out/App.app.dSYM.zip"))
        let plist = try String(contentsOfFile: "\(root)/.lanes/build/Brewer-Staging-ExportOptions.plist", encoding: .utf8)
        #expect(plist.contains("<key>method</key>\n\t<string>ad-hoc</string>"), "\(plist)")
        #expect(result.standardOutput.contains("works.sth.brewer.staging"))
        #expect(result.standardOutput.contains("full log in \(root)/.lanes/logs/"))
    }

    @Test func anIpaWithAnotherBundleIdentifierIsRefused() async throws {
        let (project, environment, _) = xcodeProject([
            "XCODEBUILD_IPA": Self.buildFixtures.appendingPathComponent("ipa/Brewer-WrongBundle.ipa").path])
        let result = try await lanes.run(["run", "build_app", "workspace:Brewer.xcworkspace", "scheme:Brewer", "export_method:ad-hoc",
                                    "app_identifier:works.sth.brewer.staging"], in: project, extraEnvironment: environment)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.standardError.contains("the configuration's appIdentifier is works.sth.brewer.staging"), "\(result.standardError)")
    }

    /// Compiler errors come first, with their locations; warnings are not errors; the raw log is kept.
    @Test func aFailedArchiveShowsEveryErrorAndKeepsTheLog() async throws {
        let (project, environment, _) = xcodeProject([
            "XCODEBUILD_ARCHIVE_LOG": Self.buildFixtures.appendingPathComponent("logs/compile-errors.log").path,
            "XCODEBUILD_ARCHIVE_STATUS": "65"])
        let result = try await lanes.run(["run", "build_app", "workspace:Brewer.xcworkspace", "scheme:Brewer", "export_method:ad-hoc"],
                                   in: project, extraEnvironment: environment)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.output.contains("/Users/ci/Brewer/Brewer/BrewView.swift:17:25: error: cannot find 'brewRatio' in scope"))
        #expect(result.standardError.contains("xcodebuild archive exited with status 65"))
        #expect(!result.standardError.contains("result of call to 'start()' is unused"), "a warning is not an error")
        let logs = try FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent(".lanes/logs").path)
        #expect(logs.contains { $0.hasSuffix("build_app-archive.log") })
    }

    @Test func withoutXcodebuildBuildAppFailsAtOnceAndSaysWhy() async throws {
        let project = LanesCommandLine.temporaryDirectory("no-xcodebuild")
        let result = try await lanes.run(["run", "build_app", "workspace:Brewer.xcworkspace", "scheme:Brewer", "export_method:ad-hoc"],
                                   in: project, extraEnvironment: ["PATH": "/usr/bin:/bin"])
        #expect(result.status == 78, "\(result.output)")
        #expect(result.standardError.contains("xcodebuild: is not on PATH"))
    }

    /// A timeout (like Ctrl-C) ends the tool's whole process group: nothing it started survives.
    @Test func aTimedOutBuildLeavesNoProcessBehind() async throws {
        let marker = LanesCommandLine.temporaryDirectory("hang").appendingPathComponent("sleep-\(UUID().uuidString)")
        try FileManager.default.copyItem(atPath: "/bin/sleep", toPath: marker.path)
        let (project, environment, _) = xcodeProject(["XCODEBUILD_HANG": marker.path])
        let result = try await lanes.run(["run", "build_app", "workspace:Brewer.xcworkspace", "scheme:Brewer", "export_method:ad-hoc",
                                    "timeout:2"], in: project, extraEnvironment: environment)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.standardError.contains("build_app timed out after 2 s"), "\(result.standardError)")
        try? await Task.sleep(for: .seconds(0.5))
        #expect(Self.processes(running: marker.path).isEmpty, "the stand-in's background child was ended with its group")
    }

    @Test func runTestsOnTwoSimulatorsNamesTheFailingTest() async throws {
        let log = LanesCommandLine.temporaryDirectory("xctest-log").appendingPathComponent("test.log")
        try """
            Test Suite 'BrewerTests' started at 2026-11-23 01:00:00.000
            Test Case '-[BrewerTests.RecipeTests testRatio]' started.
            Test Case '-[BrewerTests.RecipeTests testRatio]' passed (0.002 seconds).
            Test Case '-[BrewerTests.RecipeTests testWater]' started.
            /Users/ci/Brewer/BrewerTests/RecipeTests.swift:42: error: -[BrewerTests.RecipeTests testWater] : XCTAssertEqual failed: ("250") is not equal to ("300")
            Test Case '-[BrewerTests.RecipeTests testWater]' failed (0.003 seconds).
            Test Suite 'BrewerTests' failed at 2026-11-23 01:00:00.010.
            \t Executed 2 tests, with 1 failure (0 unexpected) in 0.005 (0.006) seconds
            ** TEST FAILED **

            """.write(to: log, atomically: true, encoding: .utf8)
        let (project, environment, record) = xcodeProject(["XCODEBUILD_TEST_LOG": log.path, "XCODEBUILD_TEST_STATUS": "65"])
        let result = try await lanes.run(["run", "run_tests", "workspace:Brewer.xcworkspace", "devices:iPhone 15,iPad Air", "scheme:Brewer"],
                                   in: project, extraEnvironment: environment)
        #expect(result.status == 1, "\(result.output)")
        #expect(result.standardError.contains("RecipeTests.testWater"), "\(result.standardError)")
        #expect(result.standardError.contains("RecipeTests.swift:42"))
        let call = try #require(try calls(record).first)
        #expect(call.contains("platform=iOS Simulator,name=iPhone 15") && call.contains("platform=iOS Simulator,name=iPad Air"))
        #expect(call.last == "test")
        let junit = try String(contentsOf: project.appendingPathComponent(".lanes/test-results/junit.xml"), encoding: .utf8)
        #expect(junit.contains("tests=\"2\"") && junit.contains("failures=\"1\""), "\(junit)")
    }

    /// fastlane's scan options become xcodebuild's own flags, in argv (never through a shell).
    @Test func runTestsPassesFastlaneOptionsToXcodebuild() async throws {
        let log = LanesCommandLine.temporaryDirectory("xctest-log-pass").appendingPathComponent("test.log")
        try """
            Test Case '-[BrewerTests.RecipeTests testRatio]' started.
            Test Case '-[BrewerTests.RecipeTests testRatio]' passed (0.002 seconds).
            \t Executed 1 test, with 0 failures (0 unexpected) in 0.002 (0.003) seconds

            """.write(to: log, atomically: true, encoding: .utf8)
        let (project, environment, record) = xcodeProject(["XCODEBUILD_TEST_LOG": log.path])
        let result = try await lanes.run(["run", "run_tests", "project:Brewer.xcodeproj", "scheme:Brewer", "only_testing:BrewerTests/RecipeTests",
                                    "skip_testing:BrewerUITests", "code_coverage:true", "number_of_retries:2", "testplan:CI",
                                    "destination:platform=macOS", "xcargs:-skipMacroValidation 'OTHER_SWIFT_FLAGS=-D CI'",
                                    "result_bundle_path:out/Tests.xcresult"],
                                   in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        let root = project.path
        #expect(try calls(record) == [[
            "-project", "\(root)/Brewer.xcodeproj", "-scheme", "Brewer", "-destination", "platform=macOS",
            "-derivedDataPath", "\(root)/.lanes/DerivedData", "-resultBundlePath", "\(root)/out/Tests.xcresult", "-testPlan", "CI",
            "-only-testing:BrewerTests/RecipeTests", "-skip-testing:BrewerUITests", "-enableCodeCoverage", "YES",
            "-retry-tests-on-failure", "-test-iterations", "3", "-skipMacroValidation", "OTHER_SWIFT_FLAGS=-D CI", "build", "test",
        ]])
        let building = try await lanes.run(["run", "run_tests", "project:Brewer.xcodeproj", "scheme:Brewer", "build_for_testing:true",
                                      "result_bundle:false", "destination:generic/platform=iOS Simulator"], in: project, extraEnvironment: environment)
        #expect(building.status == 0, "\(building.output)")
        #expect(try calls(record).last?.suffix(2) == ["\(root)/.lanes/DerivedData", "build-for-testing"])
        let both = try await lanes.run(["run", "run_tests", "project:Brewer.xcodeproj", "scheme:Brewer", "build_for_testing:true",
                                  "test_without_building:true"], in: project, extraEnvironment: environment)
        #expect(both.status == 64 && both.standardError.contains("exclude each other"), "\(both.output)")
    }

    /// gym's options: xcargs split into argv, no signing, and a Developer ID export named .app, not .app.ipa;
    /// as gym, uploadSymbols only in an App Store export.
    @Test func buildAppTakesXcargsAndExportsAMacApp() async throws {
        let (project, environment, record) = xcodeProject(["XCODEBUILD_PRODUCT": "Meow.app"])
        let result = try await lanes.run(["run", "build_app", "project:Meow.xcodeproj", "scheme:Meow", "export_method:developer-id",
                                    "platform:macOS", "xcargs:-skipMacroValidation", "include_symbols:true", "output_directory:out"],
                                   in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        let made = try calls(record)
        #expect(made.count == 2)
        #expect(made.first?.suffix(2) == ["-skipMacroValidation", "archive"])
        #expect(made.first?.contains("generic/platform=macOS") == true)
        let root = project.path
        #expect(FileManager.default.fileExists(atPath: "\(root)/out/Meow.app/Contents"))
        #expect(!FileManager.default.fileExists(atPath: "\(root)/out/Meow.app.ipa"))
        let plist = try String(contentsOfFile: "\(root)/.lanes/build/Meow-ExportOptions.plist", encoding: .utf8)
        #expect(!plist.contains("uploadSymbols"), "\(plist)")

        let unsigned = try await lanes.run(["run", "build_app", "project:Meow.xcodeproj", "scheme:Meow", "export_method:ad-hoc",
                                      "skip_codesigning:true"], in: project, extraEnvironment: environment)
        #expect(unsigned.status == 0, "\(unsigned.output)")
        let archive = try #require(try calls(record).last)
        #expect(archive.suffix(5) == ["CODE_SIGN_IDENTITY=", "CODE_SIGNING_REQUIRED=NO", "CODE_SIGN_ENTITLEMENTS=", "CODE_SIGNING_ALLOWED=NO", "archive"])
        #expect(try calls(record).count == 3, "no export follows an unsigned archive")
    }

    /// A real SwiftPM build of a fixture package, packed with a manifest whose sha256 matches the file.
    @Test func buildSwiftPackagePacksTheProductWithAManifest() async throws {
        let project = LanesCommandLine.temporaryDirectory("swiftpm")
        let package = project.appendingPathComponent("HelloTool")
        try FileManager.default.copyItem(at: Self.buildFixtures.appendingPathComponent("HelloTool"), to: package)
        let product = try String(contentsOf: package.appendingPathComponent("Package.swift"), encoding: .utf8)
            .firstMatch(of: /\.executable\(name: "([^"]+)"/).map { String($0.1) } ?? "hello-tool"
        let result = try await lanes.run(["run", "build_swift_package", "product:\(product)", "package_path:HelloTool", "version:1.2.3",
                                    "output_directory:dist", "--json"], in: project)
        #expect(result.status == 0, "\(result.output)")
        let files = try FileManager.default.contentsOfDirectory(atPath: project.appendingPathComponent("dist").path)
        let artifact = try #require(files.first { $0.hasSuffix(".tar.gz") })
        let manifestName = try #require(files.first { $0.hasSuffix(".json") })
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: project.appendingPathComponent("dist/\(manifestName)"))) as? [String: Any])
        let sha = try await Program.tool(["sha256sum", project.appendingPathComponent("dist/\(artifact)").path]).prefix(64)
        #expect(manifest["sha256"] as? String == String(sha))
        #expect(manifest["version"] as? String == "1.2.3")
        let listing = try await Program.tool(["tar", "-tzf", project.appendingPathComponent("dist/\(artifact)").path])
        #expect(listing.contains("\(product)/bin/\(product)"))
    }

    /// The upload step stores what the lane built, and its manifest names the lane, configuration and
    /// the file's SHA-256 (checked with sha256sum).
    @Test func uploadKeepsTheArtifactInTheLocalStoreWithItsLane() async throws {
        let project = LanesCommandLine.temporaryDirectory("upload-lane")
        try "brewer build".write(to: project.appendingPathComponent("brewer.tar.gz"), atomically: true, encoding: .utf8)
        try """
            import Lanes
            let lanes = Lanefile {
                Lane("ship", "Stores a build") {
                    try await upload(file: "brewer.tar.gz", configuration: "Staging")
                }
            }
            """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let result = try await lanes.run(["ship"], in: project)
        #expect(result.status == 0, "\(result.output)")
        let manifests = project.appendingPathComponent(".lanes/store/manifests")
        let name = try #require(try FileManager.default.contentsOfDirectory(atPath: manifests.path).first)
        let manifest = try #require(try JSONSerialization.jsonObject(with: Data(contentsOf: manifests.appendingPathComponent(name))) as? [String: Any])
        #expect(manifest["lane"] as? String == "ship")
        #expect(manifest["configuration"] as? String == "Staging")
        let sha = try await Program.tool(["sha256sum", project.appendingPathComponent("brewer.tar.gz").path]).prefix(64)
        #expect(manifest["sha256"] as? String == String(sha))
    }

    static func processes(running path: String) -> [String] {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { Int($0) != nil }.filter { pid in
            let command = (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))) ?? Data()
            return String(decoding: command, as: UTF8.self).hasPrefix(path)
        }
    }
}
