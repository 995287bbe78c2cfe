internal import LanesPlatform
internal import COpenSSL
import LanesHTTP

/// Signs JSON Web Tokens with a PEM private key through OpenSSL: RS256 for Google service accounts,
/// ES256 (raw r||s, as RFC 7518 requires, not OpenSSL's DER) for App Store Connect.
struct JWTSigner {
    enum Algorithm: String { case rs256 = "RS256", es256 = "ES256" }

    let algorithm: Algorithm
    /// The key, PEM. A secret: it never leaves this value.
    private let privateKeyPEM: String
    /// Who the key belongs to, for error messages ("FIREBASE_SERVICE_ACCOUNT").
    let source: String

    init(algorithm: Algorithm, privateKeyPEM: String, source: String) {
        self.algorithm = algorithm
        self.privateKeyPEM = privateKeyPEM
        self.source = source
    }

    /// `header.payload.signature` for the given header fields (besides `alg` and `typ`) and claims.
    func token(header extra: [String: String], claims: [String: JSONScalar]) throws(UploadError) -> String {
        var header: [String: JSONScalar] = ["alg": .string(algorithm.rawValue), "typ": .string("JWT")]
        for (key, value) in extra { header[key] = .string(value) }
        let signingInput = JSONScalar.object(header).base64URL + "." + JSONScalar.object(claims).base64URL
        let signature = try sign(Array(signingInput.utf8))
        return signingInput + "." + signature.base64URL
    }

    private func sign(_ message: [UInt8]) throws(UploadError) -> [UInt8] {
        OpenSSLStart.ensure()
        ERR_clear_error()
        guard let key = Self.readKey(privateKeyPEM) else {
            throw .credentials(destination: source, variable: source, detail: "the private key is not a readable, unencrypted PEM private key")
        }
        defer { EVP_PKEY_free(key) }
        let expectedType = algorithm == .rs256 ? EVP_PKEY_RSA : EVP_PKEY_EC
        guard EVP_PKEY_get_base_id(key) == expectedType else {
            throw .credentials(destination: source, variable: source,
                               detail: "the private key is not an \(algorithm == .rs256 ? "RSA" : "EC P-256") key, which \(algorithm.rawValue) needs")
        }
        guard let context = EVP_MD_CTX_new() else { throw .internal("cannot allocate a digest context") }
        defer { EVP_MD_CTX_free(context) }
        guard EVP_DigestSignInit_ex(context, nil, "SHA256", nil, nil, key, nil) == 1 else {
            throw .credentials(destination: source, variable: source, detail: "OpenSSL refused the key for signing")
        }
        var length = 0
        guard message.withUnsafeBytes({ EVP_DigestSign(context, nil, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw .internal("cannot size a \(algorithm.rawValue) signature")
        }
        var signature = [UInt8](repeating: 0, count: length)
        guard message.withUnsafeBytes({ EVP_DigestSign(context, &signature, &length, $0.baseAddress, $0.count) }) == 1 else {
            throw .internal("cannot make a \(algorithm.rawValue) signature")
        }
        signature.removeSubrange(length...)
        return algorithm == .es256 ? try Self.rawECDSA(fromDER: signature) : signature
    }

    /// The key of an unencrypted PEM text, or nil. A memory BIO does not copy its buffer, so it lives
    /// only inside the call that lends the bytes; the empty passphrase makes an encrypted key fail
    /// here instead of OpenSSL asking for a passphrase on the terminal.
    private static func readKey(_ pem: String) -> OpaquePointer? {
        Array(pem.utf8).withUnsafeBytes { bytes -> OpaquePointer? in
            guard let bio = BIO_new_mem_buf(bytes.baseAddress, Int32(bytes.count)) else { return nil }
            defer { BIO_free(bio) }
            return "".withCString { PEM_read_bio_PrivateKey(bio, nil, nil, UnsafeMutableRawPointer(mutating: $0)) }
        }
    }

    /// JOSE wants r and s as two 32-byte big-endian numbers; OpenSSL gives an ASN.1 SEQUENCE.
    private static func rawECDSA(fromDER der: [UInt8]) throws(UploadError) -> [UInt8] {
        let parsed: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var pointer: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_ECDSA_SIG(nil, &pointer, buffer.count)
        }
        guard let parsed else { throw .internal("OpenSSL returned an unreadable ECDSA signature") }
        defer { ECDSA_SIG_free(parsed) }
        var r = [UInt8](repeating: 0, count: 32)
        var s = [UInt8](repeating: 0, count: 32)
        guard BN_bn2binpad(ECDSA_SIG_get0_r(parsed), &r, 32) == 32,
              BN_bn2binpad(ECDSA_SIG_get0_s(parsed), &s, 32) == 32 else {
            throw .internal("an ECDSA signature component does not fit 32 bytes (not a P-256 key?)")
        }
        return r + s
    }
}

/// The few JSON values JWT headers and claims hold, encoded with sorted keys so tokens are reproducible.
enum JSONScalar: Sendable {
    case string(String)
    case int(Int)
    case object([String: JSONScalar])

    var json: String {
        switch self {
        case .string(let text): JSONText.quote(text)
        case .int(let number): String(number)
        case .object(let members):
            "{" + members.keys.sorted().map { JSONText.quote($0) + ":" + members[$0]!.json }.joined(separator: ",") + "}"
        }
    }

    var base64URL: String { Array(json.utf8).base64URL }
}

