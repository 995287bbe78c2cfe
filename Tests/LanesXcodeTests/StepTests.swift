import Foundation
import Lanes
import LanesXcode
import Synchronization
import Testing

/// The Xcode steps run against a temporary copy of the Brewer project.
@Suite struct XcodeStepTests {
    /// The steps start no processes; a call would be a bug.
    struct NoProcesses: ProcessRunning {
        struct Unexpected: Error {}
        func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
            throw Unexpected()
        }
    }

    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    private func context(_ directory: URL, lines: Lines) -> StepContext {
        let redactor = Redactor()
        return StepContext(environment: Environment(variables: [:], redactor: redactor), projectDirectory: directory.path,
                           stateDirectory: directory.appendingPathComponent(".lanes").path,
                           log: StepLog(redactor: redactor) { line in lines.lines.withLock { $0.append(line) } },
                           cleanups: CleanupStack(), processes: NoProcesses())
    }

    private func pbxproj(_ directory: URL) throws -> String {
        try String(contentsOf: directory.appendingPathComponent("Brewer.xcodeproj/project.pbxproj"), encoding: .utf8)
    }

    @Test func updateProjectProvisioningWritesTheGoldenFileAndReports() async throws {
        let directory = try TestData.brewerCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.copyItem(at: TestData.fixtures.appendingPathComponent("Brewer_Staging.mobileprovision"),
                                         to: directory.appendingPathComponent("Brewer_Staging.mobileprovision"))
        let lines = Lines()
        let step = try UpdateProjectProvisioning.resolve(["xcodeproj": "Brewer.xcodeproj", "profile": "Brewer_Staging.mobileprovision",
                                                          "target_filter": "^Brewer$", "build_configuration": "Staging"])
        let result = try await step.run(in: context(directory, lines: lines))
        #expect(result.matchedTargets == ["Brewer"])
        #expect(result.changes.count == 10)
        let golden = try String(contentsOf: TestData.fixtures.appendingPathComponent("golden/Brewer-provisioned-Brewer-Staging.pbxproj"), encoding: .utf8)
        #expect(try pbxproj(directory) == golden)
        #expect(lines.all.contains { $0.contains("not matched: BrewerWidget, BrewerTests, Brewer Staging Tools") })
        #expect(lines.all.contains("changed Brewer [Staging] CODE_SIGN_STYLE: 'Automatic' -> 'Manual'"))

        // Running it again changes nothing and says so.
        let again = try await step.run(in: context(directory, lines: lines))
        #expect(again.changes.isEmpty)
        #expect(try pbxproj(directory) == golden)
    }

    @Test func anExpiredProfileIsUsedWithAWarningAndAnExplicitIdentityWins() async throws {
        let directory = try TestData.brewerCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let lines = Lines()
        let result = try await UpdateProjectProvisioning.resolve([
            "xcodeproj": "Brewer.xcodeproj/", "profile": TestData.fixtures.appendingPathComponent("Brewer_Staging_Expired.mobileprovision").path,
            "target_filter": "^BrewerWidget$", "build_configuration": "Release", "code_sign_identity": "iPhone Distribution: Example Corp (ABCDE12345)",
        ]).run(in: context(directory, lines: lines))
        #expect(lines.all.contains { $0.hasPrefix("warning: profile 'Brewer_Staging_Expired' expired on 2021-01-01") })
        #expect(lines.all.contains("warning: BrewerWidget [Release] builds works.sth.brewer.widget, which profile 'Brewer_Staging_Expired' "
                                   + "(ABCDE12345.works.sth.brewer.staging) does not cover; code signing will fail"))
        #expect(result.changes.contains(XcodeSettingChange(scope: "BrewerWidget", configuration: "Release", key: "CODE_SIGN_IDENTITY",
                                                           before: nil, after: .string("iPhone Distribution: Example Corp (ABCDE12345)"))))
        // The widget pinned empty profiles; they now name the profile.
        #expect(result.changes.contains(XcodeSettingChange(scope: "BrewerWidget", configuration: "Release", key: "PROVISIONING_PROFILE_SPECIFIER",
                                                           before: .string(""), after: .string("Brewer_Staging_Expired"))))
    }

    @Test func aTargetFilterThatMatchesNothingFailsAndListsTargets() async throws {
        let directory = try TestData.brewerCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let before = try pbxproj(directory)
        let step = try UpdateProjectProvisioning.resolve([
            "xcodeproj": "Brewer.xcodeproj", "profile": TestData.fixtures.appendingPathComponent("Brewer_Staging_Expired.mobileprovision").path,
            "target_filter": "^Brewr$"])
        await #expect {
            _ = try await step.run(in: context(directory, lines: Lines()))
        } throws: { error in
            "\(error)".contains("no target matches '^Brewr$'; targets: 'Brewer', 'BrewerWidget', 'BrewerTests', 'Brewer Staging Tools'")
        }
        #expect(try pbxproj(directory) == before)
    }

    /// Issue 33: `targets` are exact names, a list (fastlane's `targets: ["App"]` never reaches
    /// `AppTests`); a name the project lacks is an error listing its targets, and nothing is written.
    @Test func targetsAreExactNames() async throws {
        let directory = try TestData.brewerCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let one = try await SetBuildSettings.resolve(["xcodeproj": "Brewer.xcodeproj", "targets": ["Brewer"], "build_configuration": "Release",
                                                      "settings": ["SWIFT_VERSION": "6.0"] as BuildSettingAssignments])
            .run(in: context(directory, lines: Lines()))
        #expect(one.matchedTargets == ["Brewer"])
        let two = try await UpdateCodeSigningSettings.resolve(StepArguments(text: ["path": "Brewer.xcodeproj", "targets": "Brewer,BrewerWidget",
                                                                                   "build_configurations": "Release,Staging"]))
            .run(in: context(directory, lines: Lines()))
        #expect(two.matchedTargets == ["Brewer", "BrewerWidget"])
        #expect(Set(two.changes.compactMap(\.configuration)) == ["Release", "Staging"])
        let before = try pbxproj(directory)
        let typo = try SetBuildSettings.resolve(["xcodeproj": "Brewer.xcodeproj", "target": ["Brewr"],
                                                 "settings": ["SWIFT_VERSION": "5.0"] as BuildSettingAssignments])
        await #expect {
            _ = try await typo.run(in: context(directory, lines: Lines()))
        } throws: { error in
            "\(error)".contains("no target named 'Brewr'; targets: 'Brewer', 'BrewerWidget', 'BrewerTests', 'Brewer Staging Tools'")
        }
        #expect(try pbxproj(directory) == before)
    }

    /// Issue 33: without `xcodeproj`, the version steps use the one project in the Lanefile's folder,
    /// as agvtool does; two projects are an error naming both.
    @Test func theVersionStepsFindTheOneProject() async throws {
        let directory = try TestData.brewerCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await IncrementBuildNumber.resolve(["build_number": "77"]).run(in: context(directory, lines: Lines()))
        #expect(result.projectFile.hasSuffix("Brewer.xcodeproj/project.pbxproj"))
        #expect(try await GetBuildNumber.resolve([:]).run(in: context(directory, lines: Lines())) == "77")
        try FileManager.default.copyItem(at: directory.appendingPathComponent("Brewer.xcodeproj"), to: directory.appendingPathComponent("Other.xcodeproj"))
        await #expect {
            _ = try await GetVersionNumber.resolve([:]).run(in: context(directory, lines: Lines()))
        } throws: { error in
            "\(error)".contains("get_version_number: 2 projects found: Brewer.xcodeproj, Other.xcodeproj")
        }
    }

    @Test func aMalformedProjectIsReportedWithLineAndColumnAndLeftAlone() async throws {
        let directory = try TestData.brewerCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("Brewer.xcodeproj/project.pbxproj")
        let broken = try pbxproj(directory).replacing("SDKROOT = macosx;", with: "SDKROOT = macosx", maxReplacements: 1)
        try broken.write(to: file, atomically: true, encoding: .utf8)
        let step = try SetBuildSettings.resolve(["xcodeproj": "Brewer.xcodeproj", "targets": ["Brewer"],
                                                 "settings": ["SWIFT_VERSION": "6.0"] as BuildSettingAssignments])
        await #expect {
            _ = try await step.run(in: context(directory, lines: Lines()))
        } throws: { error in
            "\(error)".contains("project.pbxproj:3") && "\(error)".contains("expected ';' after the value of \"SDKROOT\"")
        }
        #expect(try pbxproj(directory) == broken)
    }

    @Test func setBuildSettingsWithoutATargetEditsTheProjectLevel() async throws {
        let directory = try TestData.brewerCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await SetBuildSettings.resolve(["xcodeproj": "Brewer.xcodeproj", "build_configuration": "Release",
                                                         "settings": ["SWIFT_VERSION": "6.0"] as BuildSettingAssignments])
            .run(in: context(directory, lines: Lines()))
        #expect(result.changes == [XcodeSettingChange(scope: "project", configuration: "Release", key: "SWIFT_VERSION",
                                                      before: nil, after: .string("6.0"))])
        #expect(try pbxproj(directory).contains("\t\t\t\tSDKROOT = iphoneos;\n\t\t\t\tSWIFT_VERSION = 6.0;\n\t\t\t};\n\t\t\tname = Release;"))
    }

    @Test func incrementBuildNumberEditsSettingsAndLiteralInfoPlists() async throws {
        let directory = try TestData.brewerCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        // The app keeps its build number in Info.plist; the widget refers to the build setting.
        let plist = { (version: String) in
            "<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<plist version=\"1.0\">\n<dict>\n\t<key>CFBundleVersion</key>\n\t<string>\(version)</string>\n</dict>\n</plist>\n"
        }
        for (folder, version) in [("Brewer", "41"), ("BrewerWidget", "$(CURRENT_PROJECT_VERSION)")] {
            try FileManager.default.createDirectory(at: directory.appendingPathComponent(folder), withIntermediateDirectories: true)
            try plist(version).write(to: directory.appendingPathComponent("\(folder)/Info.plist"), atomically: true, encoding: .utf8)
        }
        let result = try await IncrementBuildNumber.resolve(["xcodeproj": "Brewer.xcodeproj", "targets": ["Brewer", "BrewerWidget"]])
            .run(in: context(directory, lines: Lines()))
        #expect(try String(contentsOf: directory.appendingPathComponent("Brewer/Info.plist"), encoding: .utf8) == plist("42"))
        #expect(result.infoPlistChanges.map(\.after) == ["42"])
        // The widget has no literal plist value, so CURRENT_PROJECT_VERSION is added to its four configurations.
        #expect(result.changes.count == 4 && result.changes.allSatisfy { $0.scope == "BrewerWidget" && $0.key == "CURRENT_PROJECT_VERSION" })
        #expect(try pbxproj(directory).components(separatedBy: "CURRENT_PROJECT_VERSION = 42;").count == 5)

        let marketing = try await SetVersionNumber.resolve(["xcodeproj": "Brewer.xcodeproj", "version_number": "2.0", "target": ["BrewerWidget"]])
            .run(in: context(directory, lines: Lines()))
        #expect(marketing.changes.map(\.key) == Array(repeating: "MARKETING_VERSION", count: 4))
    }

    @Test func updateCodeSigningSettingsSwitchesToAutomatic() async throws {
        let directory = try TestData.brewerCopy()
        defer { try? FileManager.default.removeItem(at: directory) }
        let result = try await UpdateCodeSigningSettings.resolve(["xcodeproj": "Brewer.xcodeproj", "use_automatic_signing": true,
                                                                  "targets": ["Brewer"], "build_configurations": ["Staging"], "team_id": "ABCDE12345"])
            .run(in: context(directory, lines: Lines()))
        let keys = Set(result.changes.map(\.key))
        #expect(keys == ["DEVELOPMENT_TEAM", "DEVELOPMENT_TEAM[sdk=iphoneos*]", "PROVISIONING_PROFILE_SPECIFIER[sdk=iphoneos*]", "DevelopmentTeam"])
        #expect(try pbxproj(directory).contains("\"PROVISIONING_PROFILE_SPECIFIER[sdk=iphoneos*]\" = \"\";"))
    }
}
