import Foundation

/// Locates the copied signing fixtures and knows each PKCS#12 file's password (published in
/// Fixtures/FIXTURES.md; test-only material).
enum Fixture {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static func p12(_ name: String) -> String { "\(directory)/p12/\(name).p12" }
    static func profile(_ name: String) -> String { "\(directory)/profiles/\(name).mobileprovision" }
    static func certificate(_ name: String) -> String { "\(directory)/certs/\(name)" }
    static var trustRoot: String { certificate("test-root.crt") }

    static let shellPassword = "sp ace'quote\"dq$dollar\\back!bang"
    static let unicodePassword = "brëwer-pässwörd-🍺"

    /// The primary identity's SHA-1, as `security find-identity` prints it (FIXTURES.md).
    static let distSHA1 = "5F24FB844528D512C166665C383E203C5FA8ACFB"
    static let distCommonName = "iPhone Distribution: Example Corp (ABCDE12345)"

    static let passwords: [String: String] = [
        "dist-openssl3-default-aes": "brewer-aes-pass",
        "dist-legacy-rc2-3des": "brewer-legacy-pass",
        "dist-3des-sha1": "brewer-3des-pass",
        "dist-nopass-unencrypted": "",
        "dist-emptypass-aes": "",
        "dist-emptypass-legacy": "",
        "dist-with-chain": "brewer-chain-pass",
        "dist-expired": "brewer-expired-pass",
        "dist-shellchars-pass": shellPassword,
        "dist-unicode-pass": unicodePassword,
        "dist-truncated": "brewer-aes-pass",
        "dist-bitflip-mac": "brewer-aes-pass",
        "not-a-p12-actually-pem": "brewer-aes-pass",
        "extra-no-private-key": "brewer-extra-pass",
        "extra-key-mismatch": "brewer-extra-pass",
    ]

    static func password(_ name: String) -> String { passwords[name]! }
}
