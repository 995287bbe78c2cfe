internal import COpenSSL

/// A certificate with its private key (and any chain certificates), as read from a PKCS#12 file.
///
/// Owns OpenSSL handles, so it is not Sendable: keep it inside the task that read it. Only its
/// `certificate` facts (a value) travel further.
public final class SigningIdentity {
    /// Facts of the leaf certificate, the one the private key belongs to.
    public let certificate: Certificate
    /// The other certificates of the file (intermediates, roots), in file order.
    public let chain: [Certificate]
    /// Where the identity was read from, for messages.
    public let source: String

    let context: OpenSSLContext
    private let key: OpaquePointer
    private let leaf: OpaquePointer
    private let chainHandles: [OpaquePointer]

    /// Takes ownership of `key`, `leaf` and each handle of `chainHandles`.
    init(context: OpenSSLContext, key: OpaquePointer, leaf: OpaquePointer, chainHandles: [OpaquePointer],
         source: String) throws(SigningError) {
        do {
            certificate = try Certificate(handle: leaf, source: source)
            var chain: [Certificate] = []
            for handle in chainHandles { chain.append(try Certificate(handle: handle, source: source)) }
            self.chain = chain
        } catch {
            // deinit does not run for a half-made object: release what was handed over here.
            EVP_PKEY_free(key)
            X509_free(leaf)
            chainHandles.forEach { X509_free($0) }
            throw error
        }
        self.context = context
        self.key = key
        self.leaf = leaf
        self.chainHandles = chainHandles
        self.source = source
    }

    deinit {
        EVP_PKEY_free(key)
        X509_free(leaf)
        chainHandles.forEach { X509_free($0) }
    }

    /// The private key as encrypted PKCS#8 PEM (PBES2: PBKDF2-HMAC-SHA256, AES-256-CBC).
    public func encryptedPrivateKeyPEM(password: String) throws(SigningError) -> [UInt8] {
        guard !password.isEmpty else {
            throw .keychain(name: source, problem: "an empty password cannot protect a private key; set a keychain password")
        }
        OpenSSLErrors.clear()
        do {
            return try MemoryBIO.writing { bio in
                let written = password.withCString { pass in
                    PEM_write_bio_PKCS8PrivateKey(bio, key, EVP_aes_256_cbc(), pass, Int32(password.utf8.count), nil, nil)
                }
                guard written == 1 else {
                    throw SigningError.openSSL(operation: "encrypt the private key", detail: OpenSSLErrors.drain().summary)
                }
            }
        } catch let error as SigningError {
            throw error
        } catch {
            throw .openSSL(operation: "encrypt the private key", detail: "no detail from OpenSSL")
        }
    }

    /// The identity re-encoded as PKCS#12 with 3DES bags and a SHA-1 MAC: the encoding both macOS
    /// `security import` and OpenSSL 3 read without the legacy provider.
    public func tripleDESPKCS12(password: String, friendlyName: String? = nil) throws(SigningError) -> [UInt8] {
        OpenSSLErrors.clear()
        guard let stack = lanes_sk_X509_new_null() else {
            throw .openSSL(operation: "allocate a certificate list", detail: OpenSSLErrors.drain().summary)
        }
        defer { lanes_sk_X509_pop_free(stack) }
        for handle in chainHandles where lanes_sk_X509_push_up_ref(stack, handle) != 1 {
            throw .openSSL(operation: "collect the certificate chain", detail: OpenSSLErrors.drain().summary)
        }
        let pbe = NID_pbe_WithSHA1And3_Key_TripleDES_CBC
        let name = friendlyName ?? certificate.commonName
        let created: OpaquePointer? = password.withCString { pass in
            // mac_iter -1 leaves the MAC out here; it is added below with SHA-1 chosen explicitly.
            if let name {
                return name.withCString { PKCS12_create_ex(pass, $0, key, leaf, stack, pbe, pbe, 2048, -1, 0, context.handle, nil) }
            }
            return PKCS12_create_ex(pass, nil, key, leaf, stack, pbe, pbe, 2048, -1, 0, context.handle, nil)
        }
        guard let p12 = created else {
            throw .openSSL(operation: "build a PKCS#12 file", detail: OpenSSLErrors.drain().summary)
        }
        defer { PKCS12_free(p12) }
        let macSet = password.withCString { PKCS12_set_mac(p12, $0, -1, nil, 0, 2048, EVP_sha1()) }
        guard macSet == 1 else {
            throw .openSSL(operation: "add the PKCS#12 integrity check", detail: OpenSSLErrors.drain().summary)
        }
        var output: UnsafeMutablePointer<UInt8>?
        let length = i2d_PKCS12(p12, &output)
        guard length > 0, let output else {
            throw .openSSL(operation: "encode the PKCS#12 file", detail: OpenSSLErrors.drain().summary)
        }
        defer { lanes_OPENSSL_free(output) }
        return Array(UnsafeBufferPointer(start: output, count: Int(length)))
    }
}

/// A private key read back from storage, checked against its certificate.
enum PrivateKeyPEM {
    /// Decrypts `pem` with `password` and confirms it belongs to `certificate`.
    static func verify(_ pem: [UInt8], password: String, certificate: Certificate, context: OpenSSLContext,
                       source: String) throws(SigningError) {
        OpenSSLErrors.clear()
        let key: OpaquePointer?
        do {
            key = try MemoryBIO.reading(pem) { bio in
                password.withCString { pass in
                    PEM_read_bio_PrivateKey_ex(bio, nil, nil, UnsafeMutableRawPointer(mutating: pass), context.handle, nil)
                }
            }
        } catch {
            throw .fileUnreadable(path: source, reason: "\(error)")
        }
        guard let key else {
            throw .keychain(name: source, problem: "cannot decrypt the private key: wrong keychain password, or the key file is damaged")
        }
        defer { EVP_PKEY_free(key) }
        let matches: Int32 = certificate.der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            guard let handle = d2i_X509(nil, &cursor, buffer.count) else { return 0 }
            defer { X509_free(handle) }
            return X509_check_private_key(handle, key)
        }
        guard matches == 1 else {
            throw .keychain(name: source, problem: "the stored private key does not match certificate '\(certificate.displayName)'")
        }
    }
}
