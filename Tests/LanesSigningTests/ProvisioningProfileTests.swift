import Foundation
import Testing
@testable import LanesSigning

@Suite("Provisioning profiles", .timeLimit(.minutes(10)))
struct ProvisioningProfileTests {
    let trust = TrustStore(pemFiles: [Fixture.trustRoot])

    @Test func readsTheStagingProfile() throws {
        let profile = try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging"), trust: trust)
        #expect(profile.name == "Brewer_Staging")
        #expect(profile.uuid == "7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42")
        #expect(profile.teamIdentifier == "ABCDE12345")
        #expect(profile.teamName == "Example Corp")
        #expect(profile.appIDName == "Brewer Staging")
        #expect(profile.applicationIdentifier == "ABCDE12345.works.sth.brewer.staging")
        #expect(profile.bundleIdentifierPattern == "works.sth.brewer.staging")
        #expect(profile.expirationDate == (try Date("2035-01-01T00:00:00Z", strategy: .iso8601)))
        #expect(profile.creationDate == (try Date("2025-01-01T00:00:00Z", strategy: .iso8601)))
        #expect(profile.developerCertificates.map(\.sha1) == [Fixture.distSHA1])
        #expect(profile.provisionedDevices == ["00008030-001A2B3C4D5E6F70", "a1b2c3d4e5f60718293a4b5c6d7e8f9012345678"])
        #expect(!profile.provisionsAllDevices)
        #expect(!profile.getTaskAllow)
        #expect(profile.platforms == ["iOS", "xrOS", "visionOS"])
        #expect(profile.type == .adHoc)
        #expect(profile.signature == .verified(signer: "Example Test iPhone OS Provisioning Profile Signing"))
        // The payload is the signed plist, byte for byte.
        let plist = try Data(contentsOf: URL(fileURLWithPath: "\(Fixture.directory)/profiles/Brewer_Staging.plist"))
        #expect(profile.payload == Array(plist))
    }

    @Test func readsTheEnterpriseProfile() throws {
        let profile = try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Enterprise"), trust: trust)
        #expect(profile.uuid == "3f2b9c1e-8d4a-4b6e-a0f1-2c3d4e5f6a7b")
        #expect(profile.provisionsAllDevices)
        #expect(profile.provisionedDevices == nil)
        #expect(profile.type == .enterprise)
        let chained = try Certificate(der: Array(Data(contentsOf: URL(fileURLWithPath: Fixture.certificate("dist-chained.der")))))
        #expect(profile.contains(chained))
        #expect(profile.signature.isVerified)
    }

    @Test func expiredProfileStillDecodes() throws {
        let profile = try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging_Expired"), trust: trust)
        #expect(profile.name == "Brewer_Staging_Expired")
        #expect(profile.isExpired(at: Date()))
        #expect(profile.signature.isVerified)
    }

    @Test func withoutTrustStoreTheSignatureIsIntactButNotVerified() throws {
        let profile = try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging"))
        #expect(profile.signature == .notVerified(reason: "no trust store was given"))
    }

    @Test func anUnrelatedTrustStoreLeavesTheSignatureNotVerified() throws {
        // The WWDR chain does not contain the profile signer's CA path (test-iphone-ca).
        let unrelated = TrustStore(pemFiles: [Fixture.certificate("test-wwdr.crt")])
        let profile = try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging"), trust: unrelated)
        guard case .notVerified(let reason) = profile.signature else { Issue.record("verified against the wrong CA"); return }
        #expect(reason.contains("does not chain to"))
    }

    @Test func tamperedProfileHasAnInvalidSignature() {
        let error = #expect(throws: SigningError.self) {
            try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging_Tampered"), trust: trust)
        }
        guard case .profileSignatureInvalid = error else { Issue.record("got \(String(describing: error))"); return }
        // Rejected even when no trust store is given: the content itself no longer matches.
        #expect(throws: SigningError.self) { try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging_Tampered")) }
    }

    @Test func truncatedProfile() {
        let error = #expect(throws: SigningError.self) {
            try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging_Truncated"))
        }
        guard case .truncatedProfile(_, let size) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(size == 1500)
    }

    @Test func unsignedProfile() {
        let error = #expect(throws: SigningError.self) {
            try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging_Unsigned"))
        }
        guard case .profileNotSigned(_, let looksLike) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(looksLike == "an XML property list")
    }

    @Test func missingTrustFileIsNamed() {
        let error = #expect(throws: SigningError.self) {
            try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging"), trust: TrustStore(pemFiles: ["/nope/ca.pem"]))
        }
        #expect(error?.description.hasPrefix("/nope/ca.pem") == true)
    }

    @Test(arguments: [
        (true, ["d"] as [String]?, false, ProfileType.enterprise),
        (false, ["d"], true, .development),
        (false, ["d"], false, .adHoc),
        (false, nil, false, .appStore),
        (false, [], true, .appStore),
    ])
    func profileType(all: Bool, devices: [String]?, getTaskAllow: Bool, expected: ProfileType) {
        #expect(ProfileType.of(provisionsAllDevices: all, provisionedDevices: devices, getTaskAllow: getTaskAllow) == expected)
    }

    @Test(arguments: [
        ("ABCDE12345.works.sth.brewer.staging", "works.sth.brewer.staging", true),
        ("ABCDE12345.works.sth.brewer.staging", "works.sth.brewer", false),
        ("ABCDE12345.works.sth.brewer.staging", "works.sth.brewer.staging.widget", false),
        ("ABCDE12345.*", "anything.at.all", true),
        ("ABCDE12345.works.sth.*", "works.sth.brewer", true),
        ("ABCDE12345.works.sth.*", "works.other", false),
    ])
    func applicationIdentifierWildcards(entitlement: String, bundleID: String, matches: Bool) {
        #expect(ApplicationIdentifier(entitlement).matches(bundleID: bundleID, prefixes: ["ABCDE12345"]) == matches)
    }
}
