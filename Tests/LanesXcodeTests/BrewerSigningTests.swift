import Foundation
import Lanes
import Testing
@testable import LanesXcode

/// The Brewer project holds every signing trap fastlane falls into (see ../shared/xcode/brewer and the
/// expected-fastlane-*.diff files there). The golden files pin exactly what lanes writes instead.
@Suite(.timeLimit(.minutes(3))) struct BrewerSigningTests {
    private static let golden = TestData.fixtures.appendingPathComponent("golden")

    private func brewer() throws -> XcodeProject {
        try XcodeProject(bytes: try TestData.bytes(TestData.brewerPBXProj), path: "Brewer.xcodeproj/project.pbxproj")
    }

    private func stagingProfile() throws -> ProvisioningFacts {
        try ProvisioningFacts.read(profileAt: TestData.fixtures.appendingPathComponent("Brewer_Staging.mobileprovision").path)
    }

    private func expectGolden(_ name: String, _ bytes: [UInt8]) throws {
        let expected = try TestData.bytes(Self.golden.appendingPathComponent(name))
        if bytes != expected {
            let (removed, added) = changedLines(String(decoding: expected, as: UTF8.self), String(decoding: bytes, as: UTF8.self))
            Issue.record("differs from golden \(name):\n- \(removed.joined(separator: "\n- "))\n+ \(added.joined(separator: "\n+ "))")
        }
    }

    @Test func provisioningTheAppTargetForStagingMatchesTheGoldenFile() throws {
        let project = try brewer()
        let selection = try project.targets(matching: "^Brewer$")
        #expect(selection.matched.map(\.name) == ["Brewer"])
        let configurations = try project.configurations(of: selection.matched, .named("Staging"))
        #expect(configurations.map(\.name) == ["Staging"])
        var session = ProjectEditSession(project: project)
        try session.applySigning(SigningSettings(profile: try stagingProfile()), to: configurations)
        let edited = try session.finish()
        try expectGolden("Brewer-provisioned-Brewer-Staging.pbxproj", edited.document.bytes)

        // Every change is reported, from what to what.
        let described = session.changes.map(\.description)
        #expect(described.contains("Brewer [Staging] CODE_SIGN_IDENTITY[sdk=iphoneos*]: 'iPhone Developer' -> 'iPhone Distribution'"))
        #expect(described.contains("Brewer [Staging] PROVISIONING_PROFILE_SPECIFIER[sdk=iphoneos*]: 'match AdHoc works.sth.brewer.staging' -> 'Brewer_Staging'"))
        #expect(described.contains("Brewer [Staging] PROVISIONING_PROFILE: (unset) -> '7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42'"))
        #expect(described.contains("Brewer [TargetAttributes] ProvisioningStyle: 'Automatic' -> 'Manual'"))
        #expect(session.changes.count == 10)
    }

    @Test(.enabled(if: IndependentReaders.pythonPBXProjAvailable, "python3 with the pbxproj package is not installed"))
    func pythonPBXProjReadsTheGoldenFileAsIntended() async throws {
        let golden = Self.golden.appendingPathComponent("Brewer-provisioned-Brewer-Staging.pbxproj").path
        let read = { (key: String) in try await IndependentReaders.pythonBuildSetting(file: golden, configurationID: "B0E5A1000000000000000109", key: key) }
        #expect(try await read("PROVISIONING_PROFILE_SPECIFIER") == #""Brewer_Staging""#)
        #expect(try await read("PROVISIONING_PROFILE_SPECIFIER[sdk=iphoneos*]") == #""Brewer_Staging""#)
        #expect(try await read("PROVISIONING_PROFILE") == #""7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42""#)
        #expect(try await read("CODE_SIGN_STYLE") == #""Manual""#)
        #expect(try await read("OTHER_SWIFT_FLAGS") == #"["$(inherited)", "-D", "STAGING"]"#)
        // Release-Staging is another configuration and stays as it was.
        #expect(try await IndependentReaders.pythonBuildSetting(file: golden, configurationID: "B0E5A100000000000000010B", key: "CODE_SIGN_STYLE")
                == #""Automatic""#)
    }

    @Test func noConditionalVariantCanOverrideWhatWasWritten() throws {
        let project = try brewer()
        var session = ProjectEditSession(project: project)
        let configurations = try project.configurations(of: project.targets(matching: "^Brewer$").matched, .named("Staging"))
        try session.applySigning(SigningSettings(profile: try stagingProfile()), to: configurations)
        let edited = try session.finish()
        let settings = try #require(try edited.configurations(of: edited.targets[0]).first { $0.name == "Staging" }?.settings)
        let expected = ["CODE_SIGN_IDENTITY": "iPhone Distribution", "CODE_SIGN_STYLE": "Manual", "DEVELOPMENT_TEAM": "ABCDE12345",
                        "PROVISIONING_PROFILE_SPECIFIER": "Brewer_Staging", "PROVISIONING_PROFILE": "7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42"]
        for (key, value) in settings {
            let base = key.split(separator: "[").first.map(String.init) ?? key
            if let wanted = expected[base] { #expect(value == .string(wanted), "\(key)") }
        }
        // Settings lanes does not own stay as they were, the array and the underscore key included.
        #expect(settings["OTHER_SWIFT_FLAGS"] == .array(["$(inherited)", "-D", "STAGING"]))
        #expect(settings["_EXPERIMENTAL_SWIFT_EXPLICIT_MODULES"] == .string("NO"))
    }

    @Test func automaticSigningForAllTargetsMatchesTheGoldenFile() throws {
        let project = try brewer()
        let configurations = try project.configurations(of: project.targets(matching: "Brewer").matched, .named("Release"))
        #expect(configurations.count == 4)
        var session = ProjectEditSession(project: project)
        try session.applySigning(SigningSettings(style: .automatic, team: "ABCDE12345", identity: "Apple Development"), to: configurations)
        let edited = try session.finish()
        try expectGolden("Brewer-automatic-all-Release.pbxproj", edited.document.bytes)
        // Targets without TargetAttributes get an entry; the widget's pinned (empty) profiles stay empty.
        #expect(session.changes.contains { $0.scope == "BrewerTests" && $0.configuration == nil && $0.key == "ProvisioningStyle" })
    }

    @Test func exactConfigurationNamesDoNotReachSimilarNames() throws {
        let project = try brewer()
        let brewerTarget = try project.targets(matching: "^Brewer$").matched
        #expect(try project.configurations(of: brewerTarget, .named("Staging")).map(\.name) == ["Staging"])
        #expect(try project.configurations(of: brewerTarget, .matching("Staging")).map(\.name) == ["Staging", "Release-Staging"])
        #expect(try project.targets(matching: "Brewer").matched.count == 4)
    }

    @Test func unmatchedPatternsListWhatExists() throws {
        let project = try brewer()
        #expect(throws: XcodeProjectError.noTargetMatched(pattern: "^brewer$",
                                                          available: ["Brewer", "BrewerWidget", "BrewerTests", "Brewer Staging Tools"])) {
            _ = try project.targets(matching: "^brewer$")
        }
        #expect(throws: XcodeProjectError.noConfigurationMatched(filter: "named 'staging'", scope: "target 'Brewer'",
                                                                 available: ["Debug", "Staging", "Release", "Release-Staging"])) {
            _ = try project.configurations(of: project.targets(matching: "^Brewer$").matched, .named("staging"))
        }
        #expect(throws: XcodeProjectError.self) { _ = try project.targets(matching: "(unclosed") }
    }

    @Test func projectAndTargetLevelConfigurationsAreSeparate() throws {
        let project = try brewer()
        let projectLevel = try project.projectConfigurations()
        #expect(projectLevel.map(\.name) == ["Debug", "Staging", "Release", "Release-Staging"])
        #expect(projectLevel.allSatisfy { $0.target == nil && $0.settings["CODE_SIGN_STYLE"] == nil })
        #expect(project.targets.map(\.kind) == [.native, .native, .native, .native])
    }

    @Test func effectiveSettingsFollowXcodeLayers() throws {
        let project = try brewer()
        let staging = try #require(try project.configurations(of: project.targets[0]).first { $0.name == "Staging" })
        #expect(project.baseConfigurationPath(of: staging) == "Staging.xcconfig")
        // The group tree places Staging.xcconfig at the project root, so lay the file out that way.
        let root = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-effective-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: root) }
        try FileManager.default.copyItem(at: TestData.fixtures.appendingPathComponent("Configs/Staging.xcconfig"),
                                         to: root.appendingPathComponent("Staging.xcconfig"))
        let effective = try project.effectiveSettings(of: staging, projectRoot: root.path) { try? String(contentsOfFile: $0, encoding: .utf8) }
        let byKey = Dictionary(uniqueKeysWithValues: effective.map { ($0.key, $0) })
        // The target's buildSettings win over its xcconfig; keys only in the xcconfig come from there.
        #expect(byKey["CODE_SIGN_STYLE"]?.value == "Automatic")
        #expect(byKey["CODE_SIGN_STYLE"]?.source == "project.pbxproj (target Brewer)")
        #expect(byKey["PROVISIONING_PROFILE_SPECIFIER"]?.value == "match AdHoc works.sth.brewer.staging")
        #expect(byKey["PROVISIONING_PROFILE_SPECIFIER"]?.source.hasSuffix("Staging.xcconfig:5") == true)
        #expect(byKey["IPHONEOS_DEPLOYMENT_TARGET"]?.source == "project.pbxproj (project)")
        #expect(byKey["OTHER_SWIFT_FLAGS"]?.value == "-D STAGING")
    }
}
