internal import COpenSSL

/// A new RSA key and the certificate signing request Apple turns into a certificate, as
/// `fastlane cert` makes them (2048-bit RSA, SHA-256). Both stay in memory; the key is PEM
/// (PKCS#8), what match stores in the `.p12` beside the certificate.
public struct CertificateRequest: Sendable {
    public let privateKeyPEM: [UInt8]
    public let csrPEM: [UInt8]

    /// - Parameter commonName: the request's subject; Apple replaces it with its own.
    public static func generate(commonName: String) throws(SigningError) -> CertificateRequest {
        let context = try OpenSSLContext.forProcess()
        OpenSSLErrors.clear()
        guard let keyContext = EVP_PKEY_CTX_new_from_name(context.handle, "RSA", nil) else {
            throw .openSSL(operation: "start an RSA key generation", detail: OpenSSLErrors.drain().summary)
        }
        defer { EVP_PKEY_CTX_free(keyContext) }
        var key: OpaquePointer?
        guard EVP_PKEY_keygen_init(keyContext) == 1, EVP_PKEY_CTX_set_rsa_keygen_bits(keyContext, 2048) == 1,
              EVP_PKEY_generate(keyContext, &key) == 1, let key else {
            throw .openSSL(operation: "generate an RSA key", detail: OpenSSLErrors.drain().summary)
        }
        defer { EVP_PKEY_free(key) }
        guard let request = X509_REQ_new_ex(context.handle, nil) else {
            throw .openSSL(operation: "create a certificate signing request", detail: OpenSSLErrors.drain().summary)
        }
        defer { X509_REQ_free(request) }
        let named = commonName.withCString { text in
            X509_NAME_add_entry_by_txt(X509_REQ_get_subject_name(request), "CN", MBSTRING_UTF8, text, -1, -1, 0)
        }
        guard X509_REQ_set_version(request, 0) == 1, named == 1, X509_REQ_set_pubkey(request, key) == 1,
              X509_REQ_sign(request, key, EVP_sha256()) > 0 else {
            throw .openSSL(operation: "sign the certificate signing request", detail: OpenSSLErrors.drain().summary)
        }
        let csr = try Self.pem("write the certificate signing request") { PEM_write_bio_X509_REQ($0, request) }
        let pem = try Self.pem("write the private key") { PEM_write_bio_PrivateKey($0, key, nil, nil, 0, nil, nil) }
        return CertificateRequest(privateKeyPEM: pem, csrPEM: csr)
    }

    private static func pem(_ operation: String, _ write: (OpaquePointer) -> Int32) throws(SigningError) -> [UInt8] {
        do {
            return try MemoryBIO.writing { bio in
                guard write(bio) == 1 else { throw SigningError.openSSL(operation: operation, detail: OpenSSLErrors.drain().summary) }
            }
        } catch let error as SigningError {
            throw error
        } catch {
            throw .openSSL(operation: operation, detail: "no detail from OpenSSL")
        }
    }
}
