internal import COpenSSL

/// The certificates a profile signature must chain to: Apple's root CA in production, a test
/// root in tests. Passed in explicitly, never taken from the system.
public struct TrustStore: Sendable {
    /// PEM files of trusted CA certificates.
    public let pemFiles: [String]

    public init(pemFiles: [String]) {
        self.pemFiles = pemFiles
    }

    /// A human-readable name for messages.
    var displayName: String { pemFiles.joined(separator: ", ") }

    /// Builds an OpenSSL store; the caller frees it with X509_STORE_free.
    func makeStore(context: OpenSSLContext) throws(SigningError) -> OpaquePointer {
        guard let store = X509_STORE_new() else {
            throw .openSSL(operation: "create a certificate store", detail: OpenSSLErrors.drain().summary)
        }
        for file in pemFiles {
            guard LocalFile.exists(file) else {
                X509_STORE_free(store)
                throw .trustStoreUnreadable(path: file, detail: "no such file")
            }
            OpenSSLErrors.clear()
            if X509_STORE_load_file_ex(store, file, context.handle, nil) != 1 {
                X509_STORE_free(store)
                throw .trustStoreUnreadable(path: file, detail: OpenSSLErrors.drain().summary)
            }
        }
        // Apple's profile-signing leaf carries no extended key usage for S/MIME: accept any purpose,
        // as `openssl cms -verify -purpose any` does.
        X509_STORE_set_purpose(store, X509_PURPOSE_ANY)
        return store
    }
}
