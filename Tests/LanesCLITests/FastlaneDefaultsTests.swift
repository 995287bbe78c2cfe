import Foundation
import LanesTestSupport
import Testing

/// Issue 33: build_app and run_tests given only what a fastlane user writes do what gym and scan do:
/// the folder's one project, its only scheme, the app-store export, xcodebuild test (never `swift
/// test` beside an Xcode project) on the simulator scan would choose. Through the real `lanes`, with
/// the recording stand-ins for xcodebuild and xcrun (which cannot exist on Linux).
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct FastlaneDefaultsTests {
    static let standIn = LanesCommandLine.fixtures.appendingPathComponent("xcodebuild-standin").path
    static let root = LanesCommandLine.repositoryRoot
    static let ipa = root.appendingPathComponent("Tests/LanesBuildTests/Fixtures/ipa/Brewer-Staging.ipa").path
    /// The fixture project: an iOS app (SDKROOT iphoneos, IPHONEOS_DEPLOYMENT_TARGET 16.0), no shared scheme.
    static let brewerProject = root.appendingPathComponent("Tests/LanesXcodeTests/Fixtures/Brewer.xcodeproj")
    let lanes = LanesCommandLine()

    /// A folder holding the fixture project (and `extra` folders), the stand-ins first on PATH.
    func folder(_ name: String, projects: [String] = ["Brewer.xcodeproj"], extra: [String: String] = [:]) throws -> (URL, [String: String], URL) {
        let directory = LanesCommandLine.temporaryDirectory(name)
        for project in projects {
            try FileManager.default.copyItem(at: Self.brewerProject, to: directory.appendingPathComponent(project))
        }
        let record = directory.appendingPathComponent("xcodebuild-calls.txt")
        var environment = ["PATH": "\(Self.standIn):/usr/bin:/bin", "XCODEBUILD_RECORD": record.path, "XCODEBUILD_IPA": Self.ipa]
        environment.merge(extra) { $1 }
        return (directory, environment, record)
    }

    func calls(_ record: URL) throws -> [[String]] {
        guard FileManager.default.fileExists(atPath: record.path) else { return [] }
        return try String(contentsOf: record, encoding: .utf8).components(separatedBy: "\n\n").filter { !$0.isEmpty }
            .map { $0.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) }
    }

    /// `lanes run gym` with no option at all: the one project, the scheme named like it (it shares
    /// none), an iOS archive (the project's SDKROOT) and gym's default export method, app-store.
    @Test func gymWithNoOptionsArchivesTheFoldersProjectForTheAppStore() async throws {
        let (project, environment, record) = try folder("gym-defaults")
        let result = try await lanes.run(["run", "gym"], in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        let root = project.path
        let made = try calls(record)
        #expect(made.count == 2, "\(made)")
        #expect(Array(made.first?.prefix(6) ?? []) == ["-project", "\(root)/Brewer.xcodeproj", "-scheme", "Brewer", "-destination", "generic/platform=iOS"],
                "\(made)")
        #expect(made.first?.last == "archive")
        let plist = try String(contentsOfFile: "\(root)/.lanes/build/Brewer-ExportOptions.plist", encoding: .utf8)
        #expect(plist.contains("<key>method</key>\n\t<string>app-store</string>"), "\(plist)")
        // gym's output_directory default is the current folder.
        #expect(FileManager.default.fileExists(atPath: "\(root)/Brewer.ipa"))
        #expect(result.standardOutput.contains("the only project"), "\(result.standardOutput)")
    }

    /// gym's export_options hash: its method is the export method when export_method is not given.
    @Test func theMethodOfExportOptionsIsTheExportMethod() async throws {
        let (project, environment, _) = try folder("gym-export-options")
        let result = try await lanes.run(["run", "build_app", "scheme:Brewer", #"export_options:{"method":"ad-hoc"}"#], in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        let plist = try String(contentsOfFile: "\(project.path)/.lanes/build/Brewer-ExportOptions.plist", encoding: .utf8)
        #expect(plist.contains("<key>method</key>\n\t<string>ad-hoc</string>"), "\(plist)")
    }

    /// A lane's Configuration supplies what an Appfile does: build_app left without them takes its
    /// build configuration, export method and app identifier (the .ipa is checked against it).
    @Test func aLanesConfigurationIsItsAppfile() async throws {
        let (project, environment, record) = try folder("gym-configuration")
        let swiftDirectory = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/swiftc") }.map(String.init) ?? "/usr/bin"
        try """
            import Lanes

            struct Staging: Configuration {
                let certificate = "dist"
                let provisioningProfile = "Brewer_Staging"
                let buildConfiguration = "Staging"
                let appIdentifier = "works.sth.brewer.staging"
                let exportMethod = ExportMethod.adHoc
            }

            struct Production: Configuration {
                let certificate = "dist"
                let provisioningProfile = "Brewer_Production"
                let buildConfiguration = "Release"
                let appIdentifier = "works.sth.brewer"
                let exportMethod = ExportMethod.appStore
            }

            let lanes = Lanefile {
                Lane("staging", "Builds Staging", configuration: Staging()) {
                    try await buildApp(scheme: "Brewer")
                }
                Lane("production", "Builds Production") {
                    _ = try await withConfiguration(Production()) {
                        try await buildApp(scheme: "Brewer")
                    }
                }
            }
            """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        var lanefileEnvironment = environment
        lanefileEnvironment["PATH"] = "\(Self.standIn):\(swiftDirectory):/usr/bin:/bin"
        let staging = try await lanes.run(["staging"], in: project, extraEnvironment: lanefileEnvironment)
        #expect(staging.status == 0, "\(staging.output)")
        let archive = try #require(try calls(record).first)
        #expect(Array(archive.prefix(6)) == ["-project", "\(project.path)/Brewer.xcodeproj", "-scheme", "Brewer", "-configuration", "Staging"], "\(archive)")
        let plist = try String(contentsOfFile: "\(project.path)/.lanes/build/Brewer-Staging-ExportOptions.plist", encoding: .utf8)
        #expect(plist.contains("<key>method</key>\n\t<string>ad-hoc</string>"), "\(plist)")

        // The fixture .ipa is works.sth.brewer.staging: Production's app identifier refuses it.
        let production = try await lanes.run(["production"], in: project, extraEnvironment: lanefileEnvironment)
        #expect(production.status != 0, "\(production.output)")
        #expect(production.standardError.contains("appIdentifier is works.sth.brewer"), "\(production.standardError)")
        #expect(try calls(record).dropFirst(2).first?.contains("Release") == true)
    }

    /// Two projects and no `project:`: an error that lists both, and no xcodebuild run.
    @Test func twoProjectsAreAnErrorListingThem() async throws {
        let (project, environment, record) = try folder("gym-two-projects", projects: ["Brewer.xcodeproj", "Kettle.xcodeproj"])
        let result = try await lanes.run(["run", "build_app", "scheme:Brewer"], in: project, extraEnvironment: environment)
        #expect(result.status != 0, "\(result.output)")
        #expect(result.standardError.contains("Brewer.xcodeproj") && result.standardError.contains("Kettle.xcodeproj"), "\(result.standardError)")
        #expect(try calls(record).isEmpty)
    }

    /// Several shared schemes and no `scheme:`: an error that lists them (fastlane asks, or fails on CI).
    @Test func severalSharedSchemesAreAnErrorListingThem() async throws {
        let (project, environment, record) = try folder("gym-schemes")
        let schemes = project.appendingPathComponent("Brewer.xcodeproj/xcshareddata/xcschemes")
        try FileManager.default.createDirectory(at: schemes, withIntermediateDirectories: true)
        for name in ["Brewer", "BrewerWidget"] {
            try """
                <?xml version="1.0" encoding="UTF-8"?>
                <Scheme version = "1.7">
                   <BuildAction parallelizeBuildables = "YES">
                      <BuildActionEntries>
                         <BuildActionEntry buildForArchiving = "YES">
                            <BuildableReference BuildableIdentifier = "primary" BlueprintName = "\(name)" ReferencedContainer = "container:Brewer.xcodeproj">
                            </BuildableReference>
                         </BuildActionEntry>
                      </BuildActionEntries>
                   </BuildAction>
                </Scheme>
                """.write(to: schemes.appendingPathComponent("\(name).xcscheme"), atomically: true, encoding: .utf8)
        }
        let result = try await lanes.run(["run", "build_app"], in: project, extraEnvironment: environment)
        #expect(result.status != 0, "\(result.output)")
        #expect(result.standardError.contains("Brewer, BrewerWidget"), "\(result.standardError)")
        #expect(try calls(record).isEmpty)

        // One shared scheme: it is the one.
        try FileManager.default.removeItem(at: schemes.appendingPathComponent("Brewer.xcscheme"))
        let one = try await lanes.run(["run", "build_app"], in: project, extraEnvironment: environment)
        #expect(one.status == 0, "\(one.output)")
        #expect(try calls(record).first?.prefix(4).last == "BrewerWidget")
    }

    /// scan with a scheme, in a folder holding an Xcode project beside a Package.swift: xcodebuild
    /// build test (never `swift test`) on the first simulator of the oldest runtime at or above the
    /// project's deployment target (16.0), by id, as scan's detect_simulator picks it.
    @Test func scanBesideAPackageRunsXcodebuildOnTheSimulatorScanChooses() async throws {
        let log = LanesCommandLine.temporaryDirectory("scan-defaults-log").appendingPathComponent("test.log")
        try """
            Test Case '-[BrewerTests.RecipeTests testRatio]' started.
            Test Case '-[BrewerTests.RecipeTests testRatio]' passed (0.002 seconds).
            \t Executed 1 test, with 0 failures (0 unexpected) in 0.002 (0.003) seconds

            """.write(to: log, atomically: true, encoding: .utf8)
        // simctl's JSON: an iOS 15.5 runtime (below the deployment target), then 17.5 and 18.1.
        let devices = log.deletingLastPathComponent().appendingPathComponent("devices.json")
        try """
            {
              "devices" : {
                "com.apple.CoreSimulator.SimRuntime.iOS-18-1" : [
                  { "lastBootedAt" : "2026-11-01T10:00:00Z", "dataPath" : "/d/1", "logPath" : "/l/1", "udid" : "C0FFEE18-0000-0000-0000-000000000001",
                    "isAvailable" : true, "deviceTypeIdentifier" : "com.apple.CoreSimulator.SimDeviceType.iPhone-16", "state" : "Shutdown", "name" : "iPhone 16" }
                ],
                "com.apple.CoreSimulator.SimRuntime.iOS-15-5" : [
                  { "dataPath" : "/d/2", "logPath" : "/l/2", "udid" : "C0FFEE15-0000-0000-0000-000000000002",
                    "isAvailable" : true, "deviceTypeIdentifier" : "com.apple.CoreSimulator.SimDeviceType.iPhone-8", "state" : "Shutdown", "name" : "iPhone 8" }
                ],
                "com.apple.CoreSimulator.SimRuntime.iOS-17-5" : [
                  { "dataPath" : "/d/3", "logPath" : "/l/3", "udid" : "C0FFEE17-0000-0000-0000-000000000003",
                    "isAvailable" : true, "deviceTypeIdentifier" : "com.apple.CoreSimulator.SimDeviceType.iPhone-15", "state" : "Shutdown", "name" : "iPhone 15" }
                ],
                "com.apple.CoreSimulator.SimRuntime.tvOS-17-5" : [
                  { "dataPath" : "/d/4", "logPath" : "/l/4", "udid" : "C0FFEE70-0000-0000-0000-000000000004",
                    "isAvailable" : true, "deviceTypeIdentifier" : "com.apple.CoreSimulator.SimDeviceType.Apple-TV-4K", "state" : "Shutdown", "name" : "Apple TV" }
                ]
              }
            }
            """.write(to: devices, atomically: true, encoding: .utf8)
        let (project, environment, record) = try folder("scan-defaults", extra: ["XCODEBUILD_TEST_LOG": log.path, "SIMCTL_DEVICES_JSON": devices.path])
        try "// swift-tools-version:5.9\nimport PackageDescription\nlet package = Package(name: \"BrewerKit\")\n"
            .write(to: project.appendingPathComponent("Package.swift"), atomically: true, encoding: .utf8)
        let result = try await lanes.run(["run", "scan", "scheme:Brewer"], in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        let root = project.path
        let call = try #require(try calls(record).first)
        #expect(Array(call.prefix(6)) == ["-project", "\(root)/Brewer.xcodeproj", "-scheme", "Brewer",
                                          "-destination", "platform=iOS Simulator,id=C0FFEE17-0000-0000-0000-000000000003"], "\(call)")
        #expect(call.suffix(2) == ["build", "test"], "\(call)")
        #expect(!result.output.contains("swift test"), "\(result.output)")
    }

    /// build_mac_app is gym with `catalyst_platform: "macos"` (build_mac_app.rb): a Catalyst app
    /// (SUPPORTS_MACCATALYST) archives its Mac variant, and exports a .pkg; an app without
    /// Catalyst archives for its own platform, as gym's `detect_platform` decides.
    @Test func buildMacAppArchivesTheMacVariantOfACatalystApp() async throws {
        let (project, environment, record) = try folder("mac-catalyst", extra: ["XCODEBUILD_PRODUCT": "Brewer.pkg"])
        let pbxproj = project.appendingPathComponent("Brewer.xcodeproj/project.pbxproj")
        try String(contentsOf: pbxproj, encoding: .utf8)
            .replacingOccurrences(of: "SDKROOT = iphoneos;", with: "SDKROOT = iphoneos;\n\t\t\t\tSUPPORTS_MACCATALYST = YES;")
            .write(to: pbxproj, atomically: true, encoding: .utf8)
        let result = try await lanes.run(["run", "build_mac_app"], in: project, extraEnvironment: environment)
        #expect(result.status == 0, "\(result.output)")
        let archive = try #require(try calls(record).first)
        let destination = archive.firstIndex(of: "-destination").map { archive[$0 + 1] }
        #expect(destination == "generic/platform=macOS,variant=Mac Catalyst", "\(archive)")
        #expect(FileManager.default.fileExists(atPath: project.appendingPathComponent("Brewer.pkg").path)
                || result.output.contains("Brewer.pkg"), "\(result.output)")

        let (plain, plainEnvironment, plainRecord) = try folder("mac-not-catalyst", extra: ["XCODEBUILD_PRODUCT": "Brewer.pkg"])
        _ = try await lanes.run(["run", "build_mac_app"], in: plain, extraEnvironment: plainEnvironment)
        let plainArchive = try #require(try calls(plainRecord).first)
        #expect(plainArchive.firstIndex(of: "-destination").map { plainArchive[$0 + 1] } == "generic/platform=iOS", "\(plainArchive)")
    }

    /// A required option nothing gives is reported, every one at once, when the lane starts and
    /// by `lanes doctor`: before the lane's first side effect, never after it.
    @Test func requiredOptionsNothingGivesStopTheLaneBeforeItsFirstStepAndTheDoctorNamesThem() async throws {
        let (project, environment, _) = try folder("preflight", projects: [])
        let swiftDirectory = (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":")
            .first { FileManager.default.isExecutableFile(atPath: "\($0)/swiftc") }.map(String.init) ?? "/usr/bin"
        try """
            import Lanes

            func announce() async throws {
                try await slack(message: "Shipped")
            }

            let lanes = Lanefile {
                Lane("release", "Touches a file, then releases and announces") {
                    try await sh("touch", "side-effect")
                    try await setGithubRelease(tagName: "v1.0")
                    try await announce()
                }
                Lane("fine", "Needs nothing") {
                    try await sh("touch", "fine-ran")
                }
                Lane("symbols", "Needs an App Store Connect key") {
                    try await downloadDsyms(appIdentifier: "com.example.brewer", version: "latest")
                }
            }
            """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        var lanefileEnvironment = environment
        lanefileEnvironment["PATH"] = "\(Self.standIn):\(swiftDirectory):/usr/bin:/bin"
        for name in ["SLACK_URL", "GITHUB_REPOSITORY", "GITHUB_TOKEN", "GITHUB_API_TOKEN", "APP_STORE_CONNECT_API_KEY_KEY_ID", "ASC_KEY_ID",
                     "APP_STORE_CONNECT_API_KEY_ISSUER_ID", "ASC_ISSUER_ID", "APP_STORE_CONNECT_API_KEY_KEY", "APP_STORE_CONNECT_API_KEY_KEY_FILEPATH",
                     "ASC_PRIVATE_KEY"] { lanefileEnvironment[name] = "" }

        let release = try await lanes.run(["release"], in: project, extraEnvironment: lanefileEnvironment)
        #expect(release.status == 78, "\(release.output)")
        #expect(release.standardError.contains("Lanefile.swift:4: lane release: slack needs option 'slack_url', which nothing gives: pass it or set SLACK_URL"),
                "\(release.standardError)")
        #expect(release.standardError.contains("Lanefile.swift:10: lane release: set_github_release needs option 'api_token'"))
        #expect(release.standardError.contains("set_github_release needs option 'repository_name', which nothing gives: pass it or set GITHUB_REPOSITORY"))
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("side-effect").path))

        let fine = try await lanes.run(["fine"], in: project, extraEnvironment: lanefileEnvironment)
        #expect(fine.status == 0, "\(fine.output)")

        let doctor = try await lanes.run(["doctor"], in: project, extraEnvironment: lanefileEnvironment)
        #expect(doctor.status == 1, "\(doctor.output)")
        #expect(doctor.standardOutput.contains("lane release options"), "\(doctor.output)")
        #expect(doctor.standardOutput.contains("slack needs option 'slack_url'"), "\(doctor.output)")
        // Issue 33: the lanes that need an App Store Connect key, and only those, are named with what to set.
        #expect(doctor.standardOutput.contains("lane symbols App Store Connect key: calls download_dsyms (Lanefile.swift:17), which need an App Store Connect API key"),
                "\(doctor.output)")
        #expect(doctor.standardOutput.contains("APP_STORE_CONNECT_API_KEY_ISSUER_ID"))
        #expect(!doctor.standardOutput.contains("lane release App Store Connect key") && !doctor.standardOutput.contains("lane fine App Store Connect key"))
    }
}
