import LanesTestSupport
import Foundation
import Testing
@testable import LanesSigning

@Suite("File keychain", .timeLimit(.minutes(10)))
struct FileKeychainTests {
    @Test func storesEncryptedKeyAndCertificateInAPrivateDirectory() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let keychain = try FileKeychain(name: "ci-build", in: temp.path + "/keychains", password: "keychain-pass")
        try await keychain.create()
        #expect(try permissions(keychain.location) == 0o700)

        let identity = try PKCS12File.read(path: Fixture.p12("dist-legacy-rc2-3des"), password: "brewer-legacy-pass")
        let stored = try await keychain.importIdentity(identity)
        #expect(stored == KeychainIdentity(commonName: Fixture.distCommonName, sha1: Fixture.distSHA1))

        let files = try FileManager.default.contentsOfDirectory(atPath: keychain.location).sorted()
        #expect(files == ["\(Fixture.distSHA1).crt.pem", "\(Fixture.distSHA1).key.pem", "index.json"])
        for file in files { #expect(try permissions("\(keychain.location)/\(file)") == 0o600) }
        let key = try String(contentsOfFile: "\(keychain.location)/\(Fixture.distSHA1).key.pem", encoding: .utf8)
        #expect(key.hasPrefix("-----BEGIN ENCRYPTED PRIVATE KEY-----"))

        #expect(try await keychain.findIdentity(.commonName(Fixture.distCommonName)) == stored)
        #expect(try await keychain.findIdentity(.sha1(Fixture.distSHA1.lowercased())) == stored)
        await #expect(throws: SigningError.self) { try await keychain.findIdentity(.commonName("nobody")) }
        #expect(try keychain.certificate(of: stored) == identity.certificate)
        try keychain.verifyPrivateKey(of: stored)

        // The key only opens with the keychain password.
        let wrong = try FileKeychain(name: "ci-build", in: temp.path + "/keychains", password: "not-it")
        #expect(throws: SigningError.self) { try wrong.verifyPrivateKey(of: stored) }
    }

    @Test func encryptedKeyOpensWithOpenSSLAndTheKeychainPassword() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let keychain = try FileKeychain(name: "k", in: temp.path, password: Fixture.shellPassword)
        try await keychain.create()
        let identity = try PKCS12File.read(path: Fixture.p12("dist-unicode-pass"), password: Fixture.unicodePassword)
        _ = try await keychain.importIdentity(identity)
        let keyFile = "\(keychain.location)/\(Fixture.distSHA1).key.pem"
        let parsed = try await Program.tool(["openssl", "pkey", "-in", keyFile, "-passin", "env:LANES_TEST_KEYCHAIN", "-noout", "-text_pub"],
                                 environment: ["LANES_TEST_KEYCHAIN": Fixture.shellPassword])
        #expect(parsed.contains("Public-Key: (2048 bit)"))
    }

    @Test func deleteIsIdempotent() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let keychain = try FileKeychain(name: "gone", in: temp.path, password: "p")
        try await keychain.delete() // before create: nothing to do
        try await keychain.create()
        _ = try await keychain.importIdentity(try PKCS12File.read(path: Fixture.p12("dist-3des-sha1"), password: "brewer-3des-pass"))
        try await keychain.delete()
        #expect(!FileManager.default.fileExists(atPath: keychain.location))
        try await keychain.delete()
    }

    @Test(arguments: ["", "../escape", ".hidden", "with space", "slash/inside"])
    func rejectsUnsafeNames(name: String) {
        #expect(throws: SigningError.self) { try FileKeychain(name: name, in: "/tmp", password: "p") }
    }

    @Test func rejectsAnEmptyPassword() {
        #expect(throws: SigningError.self) { try FileKeychain(name: "k", in: "/tmp", password: "") }
    }
}
