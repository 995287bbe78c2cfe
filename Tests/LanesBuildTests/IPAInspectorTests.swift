import Foundation
import Testing
@testable import LanesBuild

/// The .ipa fixtures come from Fixtures/ipa/make-ipas.py (python's zipfile and plistlib).
@Suite(.timeLimit(.minutes(10))) struct IPAInspectorTests {
    static let stagingUUID = "7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42"
    static let enterpriseUUID = "3f2b9c1e-8d4a-4b6e-a0f1-2c3d4e5f6a7b"
    static let now = Date(timeIntervalSince1970: 1_795_395_723)

    @Test(arguments: ["Brewer-Staging.ipa", "Brewer-Staging-xml-stored.ipa"])
    func readsBundleAndProfile(name: String) throws {
        let ipa = try IPAInspector.inspect(path: Fixture.path("ipa/" + name))
        #expect(ipa.appPath == "Payload/Brewer.app")
        #expect(ipa.bundleIdentifier == "works.sth.brewer.staging")
        #expect(ipa.version == "2.4.0")
        #expect(ipa.build == "118")
        #expect(ipa.profile?.uuid == Self.stagingUUID)
        #expect(ipa.profile?.name == "Brewer_Staging")
        #expect(ipa.profile?.teamIdentifier == "ABCDE12345")
        try IPAInspector.check(ipa, appIdentifier: "works.sth.brewer.staging", profileUUID: Self.stagingUUID, now: Self.now)
    }

    @Test func wrongBundleIdentifierIsRefused() throws {
        let ipa = try IPAInspector.inspect(path: Fixture.path("ipa/Brewer-WrongBundle.ipa"))
        #expect(throws: BuildError.artifactRefused(
            path: Fixture.path("ipa/Brewer-WrongBundle.ipa"),
            problem: "bundle identifier is works.sth.brewer.beta, the configuration's appIdentifier is works.sth.brewer.staging")) {
            try IPAInspector.check(ipa, appIdentifier: "works.sth.brewer.staging", profileUUID: Self.stagingUUID, now: Self.now)
        }
    }

    @Test func anotherProfileIsRefused() throws {
        let ipa = try IPAInspector.inspect(path: Fixture.path("ipa/Brewer-Staging.ipa"))
        do {
            try IPAInspector.check(ipa, appIdentifier: "works.sth.brewer.staging", profileUUID: Self.enterpriseUUID, now: Self.now)
            Issue.record("accepted")
        } catch {
            #expect(error.description.contains("embeds profile Brewer_Staging (\(Self.stagingUUID)), not the installed profile \(Self.enterpriseUUID)"))
        }
        let bare = try IPAInspector.inspect(path: Fixture.path("ipa/Brewer-NoProfile.ipa"))
        #expect(bare.profile == nil)
        #expect(throws: BuildError.self) {
            try IPAInspector.check(bare, appIdentifier: "works.sth.brewer.staging", profileUUID: Self.stagingUUID, now: Self.now)
        }
        try IPAInspector.check(bare, appIdentifier: "works.sth.brewer.staging", profileUUID: nil, now: Self.now)
        let expiry = try #require(ipa.profile?.expirationDate)
        #expect(throws: BuildError.self) {
            try IPAInspector.check(ipa, appIdentifier: "works.sth.brewer.staging", profileUUID: Self.stagingUUID, now: expiry)
        }
    }

    @Test func damagedArchivesAreNamed() throws {
        var bytes = try Fixture.bytes("ipa/Brewer-Staging.ipa")
        // Flip a byte inside the deflated executable: its CRC-32 no longer matches.
        let zip = try ZipArchive(bytes: bytes, path: "x.ipa")
        let executable = try #require(zip.entries.first { $0.name == "Payload/Brewer.app/Info.plist" })
        bytes[executable.localHeaderOffset + 30 + executable.name.utf8.count + 2] ^= 0xFF
        #expect(throws: BuildError.self) { try IPAInspector.inspect(bytes: bytes, path: "x.ipa") }
        #expect(throws: BuildError.archive(path: "y.ipa", problem: "is not a zip file (no end-of-central-directory record)")) {
            try IPAInspector.inspect(bytes: Array("not a zip".utf8), path: "y.ipa")
        }
    }
}
