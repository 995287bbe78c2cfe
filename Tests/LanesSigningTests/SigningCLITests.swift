import Foundation
import Testing

/// `lanes cert` and `lanes profile`, run as the built binary with passwords in the environment.
@Suite("lanes cert / lanes profile", .timeLimit(.minutes(10)), .tags(.live))
struct SigningCLITests {
    /// Every PKCS#12 fixture with its exact outcome: exit status and what stderr must say.
    @Test(arguments: [
        ("dist-openssl3-default-aes", 0, ""),
        ("dist-legacy-rc2-3des", 0, ""),
        ("dist-3des-sha1", 0, ""),
        ("dist-nopass-unencrypted", 0, ""),
        ("dist-emptypass-aes", 0, ""),
        ("dist-emptypass-legacy", 0, ""),
        ("dist-with-chain", 0, ""),
        ("dist-shellchars-pass", 0, ""),
        ("dist-unicode-pass", 0, ""),
        ("dist-expired", 1, "expired on 2021-01-01T00:00:00Z"),
        ("dist-truncated", 78, "truncated"),
        ("dist-bitflip-mac", 78, "wrong password, or the file is damaged"),
        ("not-a-p12-actually-pem", 78, "not a PKCS#12 file (it looks like a PEM certificate"),
        ("extra-no-private-key", 78, "contains no private key"),
        ("extra-key-mismatch", 78, "does not belong to any certificate"),
    ])
    func certInfo(name: String, status: Int32, message: String) async throws {
        let result = try await LanesBinary.run(["cert", "info", Fixture.p12(name), "--password-env", "P12_PASSWORD", "--json"],
                                         environment: ["P12_PASSWORD": Fixture.password(name)])
        #expect(result.status == status, "\(result.errors)")
        if message.isEmpty {
            #expect(result.errors.isEmpty)
        } else {
            #expect(result.errors.contains(message), "\(result.errors)")
        }
        guard status != 78 else { #expect(result.output.isEmpty); return }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["commonName"] as? String == Fixture.distCommonName)
        #expect(json["teamIdentifier"] as? String == "ABCDE12345")
        #expect(json["expired"] as? Bool == (status == 1))
        #expect((json["sha256"] as? String)?.count == 64)
        if name.hasPrefix("dist-") && !["dist-with-chain", "dist-expired"].contains(name) {
            #expect(json["sha1"] as? String == Fixture.distSHA1)
            #expect(json["notBefore"] as? String == "2025-01-01T00:00:00Z")
            #expect(json["notAfter"] as? String == "2035-01-01T00:00:00Z")
        }
    }

    @Test func wrongPasswordNamesTheVariableNotThePassword() async throws {
        let result = try await LanesBinary.run(["cert", "info", Fixture.p12("dist-3des-sha1"), "--password-env", "MY_P12"],
                                         environment: ["MY_P12": "guessed-wrong-42"])
        #expect(result.status == 78)
        #expect(result.errors.contains("wrong password, or the file is damaged"))
        #expect(result.errors.contains("$MY_P12"))
        #expect(!result.errors.contains("guessed-wrong-42") && !result.output.contains("guessed-wrong-42"))
        let unset = try await LanesBinary.run(["cert", "info", Fixture.p12("dist-3des-sha1"), "--password-env", "NOT_SET"])
        #expect(unset.status == 78)
        #expect(unset.errors.contains("NOT_SET"))
    }

    @Test func passwordsAreNotAcceptedAsArguments() async throws {
        let result = try await LanesBinary.run(["cert", "info", Fixture.p12("dist-3des-sha1"), "--password", "brewer-3des-pass"])
        #expect(result.status == 64)
    }

    /// Every profile fixture with its exact outcome.
    @Test(arguments: [
        ("Brewer_Staging", 0, "ad-hoc", "7a1d0e4c-2b7e-4e8f-9c11-5d3a2b1c0f42"),
        ("Brewer_Enterprise", 0, "enterprise", "3f2b9c1e-8d4a-4b6e-a0f1-2c3d4e5f6a7b"),
        ("Brewer_Staging_Expired", 0, "ad-hoc", "0b1c2d3e-4f50-4617-8293-a4b5c6d7e8f9"),
        ("Brewer_Staging_Tampered", 78, "signature invalid", ""),
        ("Brewer_Staging_Truncated", 78, "truncated", ""),
        ("Brewer_Staging_Unsigned", 78, "not a signed provisioning profile", ""),
    ])
    func profileInfo(name: String, status: Int32, typeOrMessage: String, uuid: String) async throws {
        let result = try await LanesBinary.run(["profile", "info", Fixture.profile(name), "--trust", Fixture.trustRoot, "--json"])
        #expect(result.status == status, "\(result.errors)")
        guard status == 0 else {
            #expect(result.errors.contains(typeOrMessage), "\(result.errors)")
            return
        }
        let json = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
        #expect(json["name"] as? String == name)
        #expect(json["uuid"] as? String == uuid)
        #expect(json["type"] as? String == typeOrMessage)
        #expect(json["teamIdentifier"] as? String == "ABCDE12345")
        #expect(json["signatureVerified"] as? Bool == true)
        #expect((json["applicationIdentifier"] as? String)?.hasPrefix("ABCDE12345.works.sth.brewer.") == true)
        #expect((json["certificatesSHA1"] as? [String])?.count == 1)
        #expect(json["expired"] as? Bool == (name == "Brewer_Staging_Expired"))
        #expect(json["expirationDate"] as? String == (name == "Brewer_Staging_Expired" ? "2021-01-01T00:00:00Z" : "2035-01-01T00:00:00Z"))
    }

    @Test func profileInfoWithoutTrustSaysNotVerified() async throws {
        let result = try await LanesBinary.run(["profile", "info", Fixture.profile("Brewer_Staging"), "--json"])
        #expect(result.status == 0)
        #expect(result.output.contains("\"signatureVerified\" : false"))
        let untrusted = try await LanesBinary.run(["profile", "info", Fixture.profile("Brewer_Staging"), "--trust", Fixture.certificate("test-wwdr.crt")])
        #expect(untrusted.status == 1)
        #expect(untrusted.errors.contains("signature not verified"))
    }

    @Test(arguments: [
        ("dist-3des-sha1", "Brewer_Staging", "works.sth.brewer.staging", 0, ""),
        ("dist-with-chain", "Brewer_Enterprise", "works.sth.brewer.enterprise", 0, ""),
        ("dist-3des-sha1", "Brewer_Staging", "works.sth.brewer.other", 1, "Entitlements.application-identifier"),
        ("dist-with-chain", "Brewer_Staging", "works.sth.brewer.staging", 1, "DeveloperCertificates"),
        ("dist-expired", "Brewer_Staging_Expired", "works.sth.brewer.staging", 1, "ExpirationDate"),
        ("dist-3des-sha1", "Brewer_Staging_Tampered", "works.sth.brewer.staging", 78, "signature invalid"),
        ("dist-bitflip-mac", "Brewer_Staging", "works.sth.brewer.staging", 78, "wrong password, or the file is damaged"),
    ])
    func certCheck(p12: String, profile: String, appID: String, status: Int32, message: String) async throws {
        let result = try await LanesBinary.run(["cert", "check", Fixture.p12(p12), "--password-env", "P12_PASSWORD",
                                          "--profile", Fixture.profile(profile), "--app-id", appID, "--trust", Fixture.trustRoot],
                                         environment: ["P12_PASSWORD": Fixture.password(p12)])
        #expect(result.status == status, "\(result.errors)")
        if status == 0 {
            #expect(result.output.hasPrefix("ok: "))
            #expect(result.errors.isEmpty)
        } else {
            #expect(result.errors.contains(message), "\(result.errors)")
        }
    }
}
