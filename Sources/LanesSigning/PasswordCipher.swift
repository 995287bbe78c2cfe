internal import COpenSSL

/// Password-based symmetric encryption primitives through OpenSSL: PBKDF2-HMAC-SHA256, AES-256-GCM,
/// and the legacy `EVP_BytesToKey` with AES-256-CBC that `openssl enc` used to write. The formats
/// built on them (fastlane match's files) live with their users; this is only the C boundary.
public enum PasswordCipher {
    public enum LegacyDigest: String, Sendable, CaseIterable {
        case md5 = "MD5"
        case sha256 = "SHA-256"
    }

    /// PBKDF2-HMAC-SHA256 of `password` and `salt`, `length` bytes.
    public static func pbkdf2SHA256(password: [UInt8], salt: [UInt8], iterations: Int, length: Int) throws(SigningError) -> [UInt8] {
        OpenSSLRuntime.start()
        var output = [UInt8](repeating: 0, count: length)
        let done = password.withUnsafeBufferPointer { pass in
            pass.withMemoryRebound(to: CChar.self) { pass in
                PKCS5_PBKDF2_HMAC(pass.baseAddress, Int32(pass.count), salt, Int32(salt.count), Int32(iterations),
                                  EVP_sha256(), Int32(length), &output)
            }
        }
        guard done == 1 else { throw .openSSL(operation: "derive a key (PBKDF2)", detail: OpenSSLErrors.drain().summary) }
        return output
    }

    /// OpenSSL's `EVP_BytesToKey` (one iteration): the key (32) and IV (16) of AES-256-CBC.
    public static func legacyKeyAndIV(password: [UInt8], salt: [UInt8], digest: LegacyDigest) throws(SigningError) -> (key: [UInt8], iv: [UInt8]) {
        OpenSSLRuntime.start()
        var key = [UInt8](repeating: 0, count: 32)
        var iv = [UInt8](repeating: 0, count: 16)
        let md = digest == .md5 ? EVP_md5() : EVP_sha256()
        let count = EVP_BytesToKey(EVP_aes_256_cbc(), md, salt, password, Int32(password.count), 1, &key, &iv)
        guard count == 32 else { throw .openSSL(operation: "derive a key (EVP_BytesToKey)", detail: OpenSSLErrors.drain().summary) }
        return (key, iv)
    }

    /// AES-256-GCM encryption; returns the ciphertext and the 16-byte tag.
    public static func sealGCM(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8], additionalData: [UInt8]) throws(SigningError) -> (ciphertext: [UInt8], tag: [UInt8]) {
        var tag = [UInt8](repeating: 0, count: 16)
        let ciphertext = try run(EVP_aes_256_gcm(), encrypt: true, key: key, iv: iv, input: plaintext) { context in
            guard additionalData.isEmpty || update(context, additionalData, output: nil) else { return false }
            return true
        } after: { context in
            EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_GET_TAG, 16, &tag) == 1
        }
        guard let ciphertext else { throw .openSSL(operation: "encrypt (AES-256-GCM)", detail: OpenSSLErrors.drain().summary) }
        return (ciphertext, tag)
    }

    /// AES-256-GCM decryption; nil when the tag does not match (wrong key or altered bytes).
    public static func openGCM(_ ciphertext: [UInt8], tag: [UInt8], key: [UInt8], iv: [UInt8], additionalData: [UInt8]) -> [UInt8]? {
        var tag = tag
        return try? run(EVP_aes_256_gcm(), encrypt: false, key: key, iv: iv, input: ciphertext) { context in
            guard additionalData.isEmpty || update(context, additionalData, output: nil) else { return false }
            return EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_TAG, Int32(tag.count), &tag) == 1
        } after: { _ in true }
    }

    /// AES-256-CBC with PKCS#7 padding.
    public static func encryptCBC(_ plaintext: [UInt8], key: [UInt8], iv: [UInt8]) throws(SigningError) -> [UInt8] {
        guard let result = try run(EVP_aes_256_cbc(), encrypt: true, key: key, iv: iv, input: plaintext, before: { _ in true }, after: { _ in true }) else {
            throw .openSSL(operation: "encrypt (AES-256-CBC)", detail: OpenSSLErrors.drain().summary)
        }
        return result
    }

    /// AES-256-CBC decryption; nil when the padding is wrong (a wrong key, most of the time).
    public static func decryptCBC(_ ciphertext: [UInt8], key: [UInt8], iv: [UInt8]) -> [UInt8]? {
        try? run(EVP_aes_256_cbc(), encrypt: false, key: key, iv: iv, input: ciphertext, before: { _ in true }, after: { _ in true })
    }

    /// Cryptographically random bytes.
    public static func randomBytes(_ count: Int) throws(SigningError) -> [UInt8] {
        OpenSSLRuntime.start()
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else {
            throw .openSSL(operation: "generate random bytes", detail: OpenSSLErrors.drain().summary)
        }
        return bytes
    }

    private static func update(_ context: OpaquePointer, _ input: [UInt8], output: UnsafeMutablePointer<UInt8>?) -> Bool {
        var written: Int32 = 0
        return EVP_CipherUpdate(context, output, &written, input, Int32(input.count)) == 1
    }

    /// One cipher pass; nil when OpenSSL refuses (bad padding, bad tag).
    private static func run(_ cipher: OpaquePointer?, encrypt: Bool, key: [UInt8], iv: [UInt8], input: [UInt8],
                            before: (OpaquePointer) -> Bool, after: (OpaquePointer) -> Bool) throws(SigningError) -> [UInt8]? {
        OpenSSLRuntime.start()
        OpenSSLErrors.clear()
        guard let context = EVP_CIPHER_CTX_new() else {
            throw .openSSL(operation: "allocate a cipher", detail: OpenSSLErrors.drain().summary)
        }
        defer { EVP_CIPHER_CTX_free(context) }
        let mode: Int32 = encrypt ? 1 : 0
        guard EVP_CipherInit_ex(context, cipher, nil, nil, nil, mode) == 1 else { return nil }
        if iv.count != 16 {
            guard EVP_CIPHER_CTX_ctrl(context, EVP_CTRL_GCM_SET_IVLEN, Int32(iv.count), nil) == 1 else { return nil }
        }
        guard EVP_CipherInit_ex(context, nil, nil, key, iv, mode) == 1, before(context) else { return nil }
        var output = [UInt8](repeating: 0, count: input.count + 32)
        var written: Int32 = 0
        var total = 0
        let updated = output.withUnsafeMutableBufferPointer { buffer in
            EVP_CipherUpdate(context, buffer.baseAddress, &written, input, Int32(input.count)) == 1
        }
        guard updated else { return nil }
        total = Int(written)
        let finished = output.withUnsafeMutableBufferPointer { buffer in
            EVP_CipherFinal_ex(context, buffer.baseAddress! + total, &written) == 1
        }
        // Clear what was decrypted before dropping it on a failure.
        guard finished, after(context) else {
            output.withUnsafeMutableBufferPointer { buffer in buffer.update(repeating: 0) }
            OpenSSLErrors.clear()
            return nil
        }
        total += Int(written)
        return Array(output[0..<total])
    }
}
