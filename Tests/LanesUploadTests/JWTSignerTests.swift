import Foundation
import LanesTestSupport
@testable import LanesUpload
import Testing
@testable import LanesHTTP

/// The JWT signer reads its PEM key through a memory BIO that lives only inside the call lending it
/// the bytes, and never falls back to OpenSSL's passphrase prompt on the terminal.
@Suite struct JWTSignerTests {
    /// A fresh P-256 key as PKCS#8 PEM, encrypted with `passphrase` when one is given.
    static func ecKey(passphrase: String? = nil) throws -> String {
        let directory = LanesProcess.temporaryDirectory("jwt-key")
        defer { try? FileManager.default.removeItem(at: directory) }
        let plain = directory.appendingPathComponent("key.pem").path
        _ = try runTool(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256", "-out", plain])
        guard let passphrase else { return try String(contentsOfFile: plain, encoding: .utf8) }
        let encrypted = directory.appendingPathComponent("encrypted.pem").path
        _ = try runTool(["openssl", "pkcs8", "-topk8", "-v2", "aes-256-cbc", "-in", plain, "-out", encrypted, "-passout", "env:JWT_TEST_PASS"],
                        environment: ["JWT_TEST_PASS": passphrase])
        return try String(contentsOfFile: encrypted, encoding: .utf8)
    }

    @Test func signsWithAnUnencryptedKeyAndGivesRawSignatures() throws {
        let token = try JWTSigner(algorithm: .es256, privateKeyPEM: try Self.ecKey(), source: "TEST_KEY")
            .token(header: ["kid": "K"], claims: ["iss": .string("issuer")])
        let parts = token.split(separator: ".")
        #expect(parts.count == 3)
        // 64 bytes of r||s are 86 base64url characters without padding.
        #expect(parts.last?.count == 86, "\(token)")
    }

    @Test func anEncryptedKeyIsRefusedWithoutAPassphrasePrompt() throws {
        let pem = try Self.ecKey(passphrase: "jwt-passphrase-never-shown")
        #expect(pem.contains("BEGIN ENCRYPTED PRIVATE KEY"))
        #expect {
            try JWTSigner(algorithm: .es256, privateKeyPEM: pem, source: "TEST_KEY").token(header: [:], claims: [:])
        } throws: { error in
            let message = "\(error)"
            return message.contains("unencrypted PEM private key") && message.contains("TEST_KEY")
        }
    }

    /// Short texts are Swift small strings, whose C string is a temporary copy: a BIO kept past
    /// `withCString` would read freed stack memory (AddressSanitizer, `make test-sanitize`).
    @Test(arguments: ["", "x", "-----BEGIN"])
    func aTextThatIsNoKeyIsRefused(text: String) {
        #expect(throws: UploadError.self) {
            try JWTSigner(algorithm: .rs256, privateKeyPEM: text, source: "TEST_KEY").token(header: [:], claims: [:])
        }
    }
}
