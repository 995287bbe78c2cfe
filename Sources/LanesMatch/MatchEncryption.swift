#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesSigning

/// fastlane match's file encryption (fastlane 2.x), byte for byte. Every stored file is base64 text of:
///
/// - v2: `match_encrypted_v2__` + salt (8) + GCM tag (16) + ciphertext. AES-256-GCM whose key (32),
///   IV (12) and additional authenticated data (24) are the 68 bytes of PBKDF2-HMAC-SHA256 of the
///   password and salt, 10,000 iterations.
/// - v1: `Salted__` + salt (8) + ciphertext. AES-256-CBC keyed by OpenSSL's `EVP_BytesToKey`, one
///   iteration, MD5 (old `openssl enc`) or SHA-256 (OpenSSL 1.1+). v1 has no integrity check, so a
///   decryption is accepted only when the padding is right and the result passes `accept`.
public enum MatchEncryption {
    public enum Version: String, Sendable {
        case v1, v2
    }

    static let v2Prefix = Array("match_encrypted_v2__".utf8)
    static let v1Prefix = Array("Salted__".utf8)
    static let iterations = 10_000

    /// The stored text (base64, 60 characters a line, as Ruby's `Base64.encode64` writes) of
    /// `clear` encrypted with v2 and a fresh random salt.
    public static func encrypt(_ clear: [UInt8], password: String) throws(SigningError) -> [UInt8] {
        let salt = try PasswordCipher.randomBytes(8)
        return try encrypt(clear, password: password, salt: salt)
    }

    /// v2 with the salt given; for tests that compare with another implementation.
    public static func encrypt(_ clear: [UInt8], password: String, salt: [UInt8]) throws(SigningError) -> [UInt8] {
        let material = try PasswordCipher.pbkdf2SHA256(password: Array(password.utf8), salt: salt, iterations: iterations, length: 68)
        let sealed = try PasswordCipher.sealGCM(clear, key: Array(material[0..<32]), iv: Array(material[32..<44]),
                                                additionalData: Array(material[44..<68]))
        return base64Lines(v2Prefix + salt + sealed.tag + sealed.ciphertext)
    }

    /// The clear bytes of a stored file and the version it was written with; nil when `password`
    /// does not decrypt it. `accept` checks a v1 result (see the type's documentation).
    public static func decrypt(_ stored: [UInt8], password: String, file: String,
                               accept: ([UInt8]) -> Bool) throws(MatchError) -> (clear: [UInt8], version: Version)? {
        guard let raw = Data(base64Encoded: Data(stored), options: .ignoreUnknownCharacters).map(Array.init) else {
            throw .damaged(file: file, problem: "not base64 text")
        }
        let pass = Array(password.utf8)
        if raw.starts(with: v2Prefix) {
            guard raw.count >= 44 else { throw .damaged(file: file, problem: "\(raw.count) bytes, shorter than the v2 header") }
            let salt = Array(raw[20..<28])
            let tag = Array(raw[28..<44])
            guard let material = try? PasswordCipher.pbkdf2SHA256(password: pass, salt: salt, iterations: iterations, length: 68) else {
                throw .storage("OpenSSL failed to derive the key for \(file)")
            }
            guard let clear = PasswordCipher.openGCM(Array(raw[44...]), tag: tag, key: Array(material[0..<32]),
                                                     iv: Array(material[32..<44]), additionalData: Array(material[44..<68])) else {
                return nil
            }
            return (clear, .v2)
        }
        guard raw.starts(with: v1Prefix) else {
            throw .damaged(file: file, problem: "neither the v2 header nor OpenSSL's Salted__ header")
        }
        guard raw.count >= 32, (raw.count - 16) % 16 == 0 else {
            throw .damaged(file: file, problem: "\(raw.count) bytes, not a whole number of AES blocks (truncated?)")
        }
        let salt = Array(raw[8..<16])
        let body = Array(raw[16...])
        for digest in PasswordCipher.LegacyDigest.allCases {
            guard let derived = try? PasswordCipher.legacyKeyAndIV(password: pass, salt: salt, digest: digest) else { continue }
            if let clear = PasswordCipher.decryptCBC(body, key: derived.key, iv: derived.iv), accept(clear) {
                return (clear, .v1)
            }
        }
        return nil
    }

    /// v1 (MD5), as old fastlane versions wrote; only for tests and for reading what they wrote.
    public static func encryptV1(_ clear: [UInt8], password: String, salt: [UInt8], digest: PasswordCipher.LegacyDigest) throws(SigningError) -> [UInt8] {
        let derived = try PasswordCipher.legacyKeyAndIV(password: Array(password.utf8), salt: salt, digest: digest)
        return base64Lines(v1Prefix + salt + (try PasswordCipher.encryptCBC(clear, key: derived.key, iv: derived.iv)))
    }

    /// Base64 in lines of 60 characters, each ending in a newline (Ruby's `Base64.encode64`).
    static func base64Lines(_ bytes: [UInt8]) -> [UInt8] {
        let text = Array(Data(bytes).base64EncodedString().utf8)
        var output: [UInt8] = []
        output.reserveCapacity(text.count + text.count / 60 + 1)
        var index = 0
        while index < text.count {
            let end = min(index + 60, text.count)
            output += text[index..<end]
            output.append(0x0A)
            index = end
        }
        return output
    }
}
