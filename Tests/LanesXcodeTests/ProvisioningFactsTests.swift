import Foundation
import Lanes
import Testing
@testable import LanesXcode

@Suite(.timeLimit(.minutes(3))) struct ProvisioningFactsTests {
    private func facts(_ name: String) throws -> ProvisioningFacts {
        try ProvisioningFacts.read(profileAt: TestData.fixtures.appendingPathComponent(name).path)
    }

    @Test func readsTheStagingProfile() throws {
        let staging = try facts("Brewer_Staging.mobileprovision")
        #expect(staging.name == "Brewer_Staging")
        #expect(staging.uuid == "7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42")
        #expect(staging.teamIdentifier == "ABCDE12345")
        #expect(staging.applicationIdentifier == "ABCDE12345.works.sth.brewer.staging")
        #expect(staging.kind == .adHoc)
        #expect(staging.certificateNames == ["iPhone Distribution: Example Corp (ABCDE12345)"])
        #expect(staging.impliedIdentity == "iPhone Distribution")
        #expect(staging.expiresAt == 2_051_222_400)  // 2035-01-01T00:00:00Z
    }

    @Test func readsTheEnterpriseProfile() throws {
        let enterprise = try facts("Brewer_Enterprise.mobileprovision")
        #expect(enterprise.kind == .enterprise)
        #expect(enterprise.uuid == "3f2b9c1e-8d4a-4b6e-a0f1-2c3d4e5f6a7b")
    }

    @Test func identityFallsBackToTheGenericNameForTheProfileKind() {
        let distribution = ProvisioningFacts(name: "P", uuid: "U", teamIdentifier: "T", kind: .appStore)
        let development = ProvisioningFacts(name: "P", uuid: "U", teamIdentifier: "T", kind: .development)
        let mixed = ProvisioningFacts(name: "P", uuid: "U", teamIdentifier: "T", kind: .development,
                                      certificateNames: ["Apple Development: A (1)", "iPhone Developer: B (2)"])
        #expect(distribution.impliedIdentity == "Apple Distribution")
        #expect(development.impliedIdentity == "Apple Development")
        #expect(mixed.impliedIdentity == "Apple Development")
        #expect(SigningSettings(profile: distribution, identity: "iPhone Distribution: Example Corp (ABCDE12345)").identity
                == "iPhone Distribution: Example Corp (ABCDE12345)")
    }

    @Test func applicationIdentifiersCoverExactAndWildcardBundleIdentifiers() {
        let exact = ProvisioningFacts(name: "P", uuid: "U", teamIdentifier: "ABCDE12345",
                                      applicationIdentifier: "ABCDE12345.works.sth.brewer.staging", kind: .adHoc)
        let wildcard = ProvisioningFacts(name: "P", uuid: "U", teamIdentifier: "ABCDE12345",
                                         applicationIdentifier: "ABCDE12345.works.sth.*", kind: .adHoc)
        #expect(exact.covers(bundleIdentifier: "works.sth.brewer.staging"))
        #expect(!exact.covers(bundleIdentifier: "works.sth.brewer.staging.widget"))
        #expect(wildcard.covers(bundleIdentifier: "works.sth.brewer.staging.widget"))
        #expect(!wildcard.covers(bundleIdentifier: "works.other"))
    }

    @Test func unsignedOrTamperedProfilesAreRefused() {
        #expect(throws: LanesError.self) { _ = try facts("Brewer_Staging_Unsigned.mobileprovision") }
        #expect(throws: LanesError.self) { _ = try facts("Brewer_Staging_Tampered.mobileprovision") }
    }
}

@Suite(.timeLimit(.minutes(3))) struct XCConfigTests {
    private func reader(_ files: [String: String]) -> XCConfigReader {
        XCConfigReader { files[$0] }
    }

    @Test func followsIncludesInOrderAndStripsComments() throws {
        let settings = try reader([
            "cfg/App.xcconfig": "#include \"Base.xcconfig\"\n#include? \"Local.xcconfig\"\nDEVELOPMENT_TEAM = ABCDE12345 // the team\nCODE_SIGN_IDENTITY[sdk=iphoneos*] = iPhone Distribution;\n",
            "cfg/Base.xcconfig": "// comment only\nCODE_SIGN_STYLE = Manual\n",
        ]).settings(at: "cfg/App.xcconfig")
        #expect(settings.map(\.key) == ["CODE_SIGN_STYLE", "DEVELOPMENT_TEAM", "CODE_SIGN_IDENTITY[sdk=iphoneos*]"])
        #expect(settings.map(\.value) == ["Manual", "ABCDE12345", "iPhone Distribution"])
        #expect(settings[0].file == "cfg/Base.xcconfig" && settings[0].line == 2)
    }

    @Test func missingRequiredIncludesAndCyclesAreErrors() {
        #expect(throws: XCConfigError.self) { _ = try reader(["a.xcconfig": "#include \"missing.xcconfig\""]).settings(at: "a.xcconfig") }
        #expect(throws: XCConfigError.self) {
            _ = try reader(["a.xcconfig": "#include \"b.xcconfig\"", "b.xcconfig": "#include \"a.xcconfig\""]).settings(at: "a.xcconfig")
        }
        #expect(throws: XCConfigError.self) { _ = try reader(["a.xcconfig": "NOT AN ASSIGNMENT"]).settings(at: "a.xcconfig") }
    }

    @Test(.enabled(if: TestData.corpusAvailable, TestData.corpusAbsent),
          arguments: ["Ranchero-Software__NetNewsWire__NetNewsWire_codesigning_common.xcconfig",
                      "Automattic__pocket-casts-ios__PocketCasts.base.xcconfig", "insidegui__WWDC__Main.xcconfig"])
    func readsRealXCConfigFiles(name: String) throws {
        let path = TestData.corpusDirectory.appendingPathComponent(name).path
        // Includes of files not in the corpus (developer overrides, generated team ids) read as empty.
        let settings = try XCConfigReader { (try? String(contentsOfFile: $0, encoding: .utf8)) ?? "" }.settings(at: path)
        #expect(!settings.isEmpty)
        #expect(settings.allSatisfy { !$0.key.isEmpty && !$0.value.contains("//") })
    }

    @Test(.enabled(if: TestData.corpusAvailable, TestData.corpusAbsent))
    func newerProjectsAnchorXCConfigsInSynchronizedFolders() throws {
        let file = TestData.corpusDirectory.appendingPathComponent("Ranchero-Software__NetNewsWire__NetNewsWire.pbxproj")
        let project = try XcodeProject(bytes: try TestData.bytes(file))
        let paths = try project.targets.flatMap { try project.configurations(of: $0) }.compactMap { project.baseConfigurationPath(of: $0) }
        #expect(paths.contains { $0.hasSuffix("NetNewsWire_iOSapp_target.xcconfig") })
    }
}
