internal import COpenSSL

/// Reads PKCS#12 (.p12) files in every encoding met in practice: OpenSSL 3's AES/PBKDF2, the
/// legacy RC2-40/3DES that Keychain Access exports, 3DES/SHA-1, unencrypted, empty passwords.
public enum PKCS12File {
    /// Reads the identity in the file at `path`. Pass the password as it was typed (UTF-8); an
    /// empty string covers both "empty password" and "no password".
    public static func read(path: String, password: String) throws(SigningError) -> SigningIdentity {
        try read(bytes: LocalFile.contents(of: path), password: password, source: path)
    }

    /// Reads an identity from PKCS#12 bytes; `source` names them in errors.
    public static func read(bytes: [UInt8], password: String, source: String) throws(SigningError) -> SigningIdentity {
        let context = try OpenSSLContext.forProcess()
        OpenSSLErrors.clear()
        let p12 = try decode(bytes, context: context, source: source)
        defer { PKCS12_free(p12) }

        var key: OpaquePointer?
        var leaf: OpaquePointer?
        var others: OpaquePointer?
        let parsed = password.withCString { PKCS12_parse(p12, $0, &key, &leaf, &others) }
        var chain: [OpaquePointer] = []
        if let others {
            for index in 0..<lanes_sk_X509_num(others) {
                if let handle = lanes_sk_X509_value(others, index), X509_up_ref(handle) == 1 { chain.append(handle) }
            }
            lanes_sk_X509_pop_free(others)
        }
        guard parsed == 1 else {
            chain.forEach { X509_free($0) }
            throw parseFailure(OpenSSLErrors.drain(), source: source)
        }
        guard let key else {
            if let leaf { X509_free(leaf) }
            chain.forEach { X509_free($0) }
            throw .noPrivateKey(path: source)
        }
        guard let leaf else {
            // PKCS12_parse pairs the key with the certificate it matches; none did.
            let names = chain.compactMap { try? Certificate(handle: $0, source: source).displayName }
            EVP_PKEY_free(key)
            chain.forEach { X509_free($0) }
            if names.isEmpty { throw .noCertificate(path: source) }
            throw .keyDoesNotMatchCertificate(path: source, certificates: names)
        }
        return try SigningIdentity(context: context, key: key, leaf: leaf, chainHandles: chain, source: source)
    }

    private static func decode(_ bytes: [UInt8], context: OpenSSLContext, source: String) throws(SigningError) -> OpaquePointer {
        // An object created in our context, then filled by d2i, keeps the context (and its
        // legacy provider) for the decryption that PKCS12_parse does later.
        var p12 = PKCS12_init_ex(NID_pkcs7_data, context.handle, nil)
        let decoded: OpaquePointer?
        do {
            decoded = try MemoryBIO.reading(bytes) { d2i_PKCS12_bio($0, &p12) }
        } catch {
            if let p12 { PKCS12_free(p12) }
            throw error as? SigningError ?? .openSSL(operation: "read \(source)", detail: "no detail from OpenSSL")
        }
        guard let decoded else {
            // A failed decode frees the object and clears `p12`; a file too short to read leaves both.
            if let p12 { PKCS12_free(p12) }
            let errors = OpenSSLErrors.drain()
            if errors.contains(library: ERR_LIB_ASN1, reason: ASN1_R_NOT_ENOUGH_DATA) {
                throw .truncatedPKCS12(path: source, size: bytes.count)
            }
            throw .notPKCS12(path: source, looksLike: FileKind.guess(bytes))
        }
        return decoded
    }

    private static func parseFailure(_ errors: [OpenSSLError], source: String) -> SigningError {
        if errors.contains(library: ERR_LIB_PKCS12, reason: PKCS12_R_MAC_VERIFY_FAILURE) {
            return .wrongPasswordOrDamaged(path: source)
        }
        if errors.contains(library: ERR_LIB_EVP, reason: Int32(ERR_R_UNSUPPORTED)) {
            return .unsupportedAlgorithm(path: source, detail: errors.summary)
        }
        // A password that passes the MAC but fails decryption also means a damaged file.
        if errors.contains(where: { $0.library == ERR_LIB_PKCS12 || $0.library == ERR_LIB_EVP }) {
            return .wrongPasswordOrDamaged(path: source)
        }
        return .openSSL(operation: "read \(source)", detail: errors.summary)
    }
}

/// Recognises common files that are handed in by mistake, to say what a file is instead.
enum FileKind {
    static func guess(_ bytes: [UInt8]) -> String? {
        let head = String(decoding: bytes.prefix(64), as: UTF8.self)
        if head.hasPrefix("-----BEGIN CERTIFICATE") { return "a PEM certificate without its private key" }
        if head.contains("-----BEGIN") && head.contains("PRIVATE KEY") { return "a PEM private key" }
        if head.hasPrefix("-----BEGIN") { return "a PEM file" }
        if head.hasPrefix("<?xml") || head.hasPrefix("<plist") { return "an XML property list" }
        if head.hasPrefix("bplist") { return "a binary property list" }
        if bytes.isEmpty { return "an empty file" }
        return nil
    }
}
