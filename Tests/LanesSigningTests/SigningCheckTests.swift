import Foundation
import Testing
@testable import LanesSigning

@Suite("Certificate and profile belong together", .timeLimit(.minutes(10)))
struct SigningCheckTests {
    let trust = TrustStore(pemFiles: [Fixture.trustRoot])
    let now = try! Date("2026-06-01T00:00:00Z", strategy: .iso8601)

    func check(p12: String, profile: String) throws -> SigningCheck {
        let identity = try PKCS12File.read(path: Fixture.p12(p12), password: Fixture.password(p12))
        let profile = try ProvisioningProfileReader.read(path: Fixture.profile(profile), trust: trust)
        return SigningCheck(certificate: identity.certificate, certificatePath: Fixture.p12(p12), profile: profile,
                            requireVerifiedSignature: true)
    }

    @Test func matchingSetHasNoProblems() throws {
        let check = try check(p12: "dist-openssl3-default-aes", profile: "Brewer_Staging")
        #expect(check.problems(appIdentifier: "works.sth.brewer.staging", at: now).isEmpty)
        try check.validate(appIdentifier: "works.sth.brewer.staging", at: now)
    }

    @Test func chainedIdentityBelongsToTheEnterpriseProfile() throws {
        let check = try check(p12: "dist-with-chain", profile: "Brewer_Enterprise")
        #expect(check.problems(appIdentifier: "works.sth.brewer.enterprise", at: now).isEmpty)
    }

    @Test func wrongAppIdentifierNamesTheEntitlement() throws {
        let problems = try check(p12: "dist-3des-sha1", profile: "Brewer_Staging").problems(appIdentifier: "works.sth.brewer", at: now)
        #expect(problems.map(\.field) == ["Entitlements.application-identifier"])
        #expect(problems.first?.file == Fixture.profile("Brewer_Staging"))
    }

    @Test func certificateNotInProfile() throws {
        let problems = try check(p12: "dist-with-chain", profile: "Brewer_Staging").problems(appIdentifier: "works.sth.brewer.staging", at: now)
        #expect(problems.map(\.field) == ["DeveloperCertificates"])
        #expect(problems.first?.message.contains(Fixture.distSHA1) == true)
    }

    @Test func expiredCertificateAndProfileAreBothNamed() throws {
        let problems = try check(p12: "dist-expired", profile: "Brewer_Staging_Expired").problems(appIdentifier: "works.sth.brewer.staging", at: now)
        #expect(problems.map(\.field) == ["notAfter", "ExpirationDate"])
        #expect(problems.map(\.file) == [Fixture.p12("dist-expired"), Fixture.profile("Brewer_Staging_Expired")])
    }

    @Test func teamMismatch() throws {
        let base = try check(p12: "dist-3des-sha1", profile: "Brewer_Staging")
        let certificate = try #require(base.certificate)
        let other = ProvisioningProfile(
            path: "other.mobileprovision", name: "Other", uuid: "u", teamIdentifiers: ["ZZZZZ99999"], teamName: nil, appIDName: nil,
            applicationIdentifier: "ZZZZZ99999.*", applicationIdentifierPrefixes: ["ZZZZZ99999"], creationDate: nil,
            expirationDate: base.profile.expirationDate, developerCertificates: [certificate], provisionedDevices: nil,
            provisionsAllDevices: false, getTaskAllow: false, platforms: [], signature: base.profile.signature, payload: [])
        let problems = SigningCheck(certificate: certificate, certificatePath: "c.p12", profile: other)
            .problems(appIdentifier: "works.sth.brewer.staging", at: now)
        #expect(problems.map(\.field) == ["TeamIdentifier"])
    }

    @Test func unverifiedSignatureIsAProblemWhenRequired() throws {
        let identity = try PKCS12File.read(path: Fixture.p12("dist-3des-sha1"), password: "brewer-3des-pass")
        let profile = try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging"))
        let strict = SigningCheck(certificate: identity.certificate, certificatePath: "c.p12", profile: profile, requireVerifiedSignature: true)
        #expect(strict.problems(appIdentifier: "works.sth.brewer.staging", at: now).map(\.field) == ["signature"])
        let lenient = SigningCheck(certificate: identity.certificate, certificatePath: "c.p12", profile: profile)
        #expect(lenient.problems(appIdentifier: "works.sth.brewer.staging", at: now).isEmpty)
    }
}

extension SigningCheckTests {
    @Test func withoutCertificateOnlyTheProfileIsChecked() throws {
        let profile = try ProvisioningProfileReader.read(path: Fixture.profile("Brewer_Staging_Expired"), trust: trust)
        let check = SigningCheck(profile: profile, requireVerifiedSignature: true)
        #expect(check.problems(appIdentifier: nil, at: now).map(\.field) == ["ExpirationDate"])
        #expect(check.problems(appIdentifier: "other.app", at: now).map(\.field) == ["Entitlements.application-identifier", "ExpirationDate"])
    }
}
