import LanesTestSupport
import Foundation
import Testing
@testable import LanesSigning

@Suite("PKCS#12 reading", .timeLimit(.minutes(10)))
struct PKCS12FileTests {
    /// Files that must read, with the identity's SHA-1 and how many chain certificates come along.
    @Test(arguments: [
        ("dist-openssl3-default-aes", Fixture.distSHA1, 0),
        ("dist-legacy-rc2-3des", Fixture.distSHA1, 0),
        ("dist-3des-sha1", Fixture.distSHA1, 0),
        ("dist-nopass-unencrypted", Fixture.distSHA1, 0),
        ("dist-emptypass-aes", Fixture.distSHA1, 0),
        ("dist-emptypass-legacy", Fixture.distSHA1, 0),
        ("dist-shellchars-pass", Fixture.distSHA1, 0),
        ("dist-unicode-pass", Fixture.distSHA1, 0),
    ])
    func readsEveryEncoding(name: String, sha1: String, chainCount: Int) throws {
        let identity = try PKCS12File.read(path: Fixture.p12(name), password: Fixture.password(name))
        #expect(identity.certificate.sha1 == sha1)
        #expect(identity.certificate.commonName == Fixture.distCommonName)
        #expect(identity.chain.count == chainCount)
    }

    @Test func readsTheChain() throws {
        let identity = try PKCS12File.read(path: Fixture.p12("dist-with-chain"), password: "brewer-chain-pass")
        #expect(identity.certificate.issuerCommonName == "Example Test Worldwide Developer Relations CA")
        #expect(Set(identity.chain.compactMap(\.commonName)) == ["Example Test Worldwide Developer Relations CA", "Example Test Root CA"])
    }

    @Test func readsTheExpiredIdentityButItsFactsSayExpired() throws {
        let identity = try PKCS12File.read(path: Fixture.p12("dist-expired"), password: "brewer-expired-pass")
        let now = try Date("2026-06-01T00:00:00Z", strategy: .iso8601)
        #expect(ValidityPolicy().evaluate(identity.certificate, at: now) == .expired(since: identity.certificate.notAfter))
        #expect(throws: SigningError.self) { try ValidityPolicy().check(identity.certificate, from: "x.p12", at: now) }
    }

    @Test func certificateFacts() throws {
        let certificate = try PKCS12File.read(path: Fixture.p12("dist-3des-sha1"), password: "brewer-3des-pass").certificate
        #expect(certificate.commonName == "iPhone Distribution: Example Corp (ABCDE12345)")
        #expect(certificate.teamIdentifier == "ABCDE12345")
        #expect(certificate.organization == "Example Corp")
        #expect(certificate.serialNumber == "2001")
        #expect(certificate.sha1 == Fixture.distSHA1)
        #expect(certificate.sha256.count == 64 && certificate.sha256 == certificate.sha256.uppercased())
        #expect(certificate.notBefore == (try Date("2025-01-01T00:00:00Z", strategy: .iso8601)))
        #expect(certificate.notAfter == (try Date("2035-01-01T00:00:00Z", strategy: .iso8601)))
        #expect(certificate.allowsCodeSigning)
        // The same certificate read from its DER file gives the same facts.
        let der = try Certificate(der: Array(Data(contentsOf: URL(fileURLWithPath: Fixture.certificate("dist.der")))))
        #expect(der == certificate)
        let root = try Certificate(pem: Array(Data(contentsOf: URL(fileURLWithPath: Fixture.trustRoot))))
        #expect(!root.allowsCodeSigning)
    }

    @Test func sha256MatchesAnIndependentDigest() async throws {
        let certificate = try PKCS12File.read(path: Fixture.p12("dist-3des-sha1"), password: "brewer-3des-pass").certificate
        let output = try await Program.tool(["openssl", "x509", "-in", Fixture.certificate("dist.crt"), "-noout", "-fingerprint", "-sha256"])
        #expect(output.replacingOccurrences(of: ":", with: "").contains("=\(certificate.sha256)"))
    }

    @Test func expiringSoonIsAWarningWithConfigurableWindow() throws {
        let certificate = try PKCS12File.read(path: Fixture.p12("dist-3des-sha1"), password: "brewer-3des-pass").certificate
        let tenDaysBefore = certificate.notAfter.addingTimeInterval(-10 * 86_400)
        #expect(ValidityPolicy().evaluate(certificate, at: tenDaysBefore) == .expiringSoon(daysLeft: 10))
        #expect(try ValidityPolicy().check(certificate, from: "x.p12", at: tenDaysBefore)?.contains("expires in 10 days") == true)
        #expect(ValidityPolicy(warningDays: 5).evaluate(certificate, at: tenDaysBefore) == .valid(daysLeft: 10))
        let early = certificate.notBefore.addingTimeInterval(-1)
        #expect(ValidityPolicy().evaluate(certificate, at: early) == .notYetValid(from: certificate.notBefore))
    }

    @Test func wrongPasswordSaysPasswordOrDamage() {
        let error = #expect(throws: SigningError.self) {
            try PKCS12File.read(path: Fixture.p12("dist-openssl3-default-aes"), password: "not-the-password")
        }
        guard case .wrongPasswordOrDamaged = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(error?.description.contains("wrong password, or the file is damaged") == true)
        #expect(error?.description.contains("not-the-password") == false)
    }

    @Test func damagedMACIsReportedLikeAWrongPassword() {
        let error = #expect(throws: SigningError.self) {
            try PKCS12File.read(path: Fixture.p12("dist-bitflip-mac"), password: "brewer-aes-pass")
        }
        guard case .wrongPasswordOrDamaged(let path) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(path.hasSuffix("dist-bitflip-mac.p12"))
    }

    @Test func truncatedFile() {
        let error = #expect(throws: SigningError.self) {
            try PKCS12File.read(path: Fixture.p12("dist-truncated"), password: "brewer-aes-pass")
        }
        guard case .truncatedPKCS12(_, let size) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(size == 700)
    }

    @Test func pemCertificateIsNotPKCS12() {
        let error = #expect(throws: SigningError.self) {
            try PKCS12File.read(path: Fixture.p12("not-a-p12-actually-pem"), password: "brewer-aes-pass")
        }
        guard case .notPKCS12(_, let looksLike) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(looksLike == "a PEM certificate without its private key")
    }

    @Test func certificateWithoutKey() {
        let error = #expect(throws: SigningError.self) {
            try PKCS12File.read(path: Fixture.p12("extra-no-private-key"), password: "brewer-extra-pass")
        }
        guard case .noPrivateKey = error else { Issue.record("got \(String(describing: error))"); return }
    }

    @Test func keyNotMatchingCertificate() {
        let error = #expect(throws: SigningError.self) {
            try PKCS12File.read(path: Fixture.p12("extra-key-mismatch"), password: "brewer-extra-pass")
        }
        guard case .keyDoesNotMatchCertificate(_, let names) = error else { Issue.record("got \(String(describing: error))"); return }
        #expect(names == [Fixture.distCommonName])
    }

    @Test func missingFileNamesThePath() {
        let error = #expect(throws: SigningError.self) { try PKCS12File.read(path: "/nonexistent/x.p12", password: "") }
        #expect(error?.description.hasPrefix("/nonexistent/x.p12: cannot read file") == true)
    }

    /// The re-encoding the macOS keychain imports: 3DES bags, SHA-1 MAC, readable by plain OpenSSL 3.
    @Test func reencodesAsTripleDESWithSHA1MAC() async throws {
        let identity = try PKCS12File.read(path: Fixture.p12("dist-legacy-rc2-3des"), password: "brewer-legacy-pass")
        let bytes = try identity.tripleDESPKCS12(password: "one-time")
        let again = try PKCS12File.read(bytes: bytes, password: "one-time", source: "memory")
        #expect(again.certificate == identity.certificate)
        let file = FileManager.default.temporaryDirectory.appendingPathComponent("reencoded-\(UUID().uuidString).p12")
        try Data(bytes).write(to: file)
        defer { try? FileManager.default.removeItem(at: file) }
        let info = try await Program.tool(["openssl", "pkcs12", "-info", "-noout", "-in", file.path, "-passin", "env:LANES_TEST_P12"],
                               environment: ["LANES_TEST_P12": "one-time"])
        #expect(info.contains("MAC: sha1"))
        #expect(info.contains("Shrouded Keybag: pbeWithSHA1And3-KeyTripleDES-CBC"))
        #expect(info.contains("PKCS7 Encrypted data: pbeWithSHA1And3-KeyTripleDES-CBC"))
    }
}
