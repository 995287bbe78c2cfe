internal import COpenSSL

extension SigningIdentity {
    /// An identity from a DER certificate and an unencrypted PEM private key held in memory, as
    /// `fastlane cert` stores them side by side; the key must belong to the certificate.
    public static func pair(certificateDER: [UInt8], privateKeyPEM: [UInt8], source: String) throws(SigningError) -> SigningIdentity {
        let context = try OpenSSLContext.forProcess()
        OpenSSLErrors.clear()
        let key: OpaquePointer?
        do {
            // An empty passphrase: a stored key that is encrypted fails here instead of prompting.
            key = try MemoryBIO.reading(privateKeyPEM) { bio in
                "".withCString { PEM_read_bio_PrivateKey_ex(bio, nil, nil, UnsafeMutableRawPointer(mutating: $0), context.handle, nil) }
            }
        } catch {
            throw .fileUnreadable(path: source, reason: "\(error)")
        }
        guard let key else { throw .noPrivateKey(path: source) }
        let leaf: OpaquePointer? = certificateDER.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let leaf else {
            EVP_PKEY_free(key)
            throw .invalidCertificate(path: source, detail: OpenSSLErrors.drain().summary)
        }
        guard X509_check_private_key(leaf, key) == 1 else {
            let name = (try? Certificate(handle: leaf, source: source))?.displayName ?? "?"
            EVP_PKEY_free(key)
            X509_free(leaf)
            OpenSSLErrors.clear()
            throw .keyDoesNotMatchCertificate(path: source, certificates: [name])
        }
        return try SigningIdentity(context: context, key: key, leaf: leaf, chainHandles: [], source: source)
    }

    /// Whether `bytes` look like a PEM private key (what `fastlane cert` writes into a `.p12`).
    public static func isPEMPrivateKey(_ bytes: [UInt8]) -> Bool {
        // OpenSSL's `pkcs12 -nodes` output puts "Bag Attributes" lines before the key.
        let head = String(decoding: bytes.prefix(4096), as: UTF8.self)
        guard let begin = head.range(of: "-----BEGIN") else { return false }
        return head[begin.upperBound...].prefix(40).contains("PRIVATE KEY-----")
    }
}
