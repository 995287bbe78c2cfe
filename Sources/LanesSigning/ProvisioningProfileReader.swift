#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import COpenSSL

/// Decodes `.mobileprovision` files: CMS SignedData (DER) around an XML property list.
public enum ProvisioningProfileReader {
    /// Reads and checks the profile at `path`. The signature must always be intact (an altered,
    /// unsigned or truncated file throws); whether its signer chains to `trust` is reported in
    /// `signature`, and is only checked when a trust store is given.
    public static func read(path: String, trust: TrustStore? = nil) throws(SigningError) -> ProvisioningProfile {
        try read(bytes: LocalFile.contents(of: path), source: path, trust: trust)
    }

    public static func read(bytes: [UInt8], source: String, trust: TrustStore? = nil) throws(SigningError) -> ProvisioningProfile {
        let context = try OpenSSLContext.forProcess()
        let signed = try SignedContent.open(bytes, source: source, context: context)
        defer { CMS_ContentInfo_free(signed.handle) }
        let payload = try signed.verifiedContent(source: source)
        let signature = try trust.map { store throws(SigningError) in try signed.verifySigner(against: store, context: context) }
            ?? .notVerified(reason: "no trust store was given")
        return try ProfilePayload.decode(payload, path: source, signature: signature)
    }
}

/// A decoded CMS structure (owned handle) and the checks on it.
struct SignedContent {
    let handle: OpaquePointer

    static func open(_ bytes: [UInt8], source: String, context: OpenSSLContext) throws(SigningError) -> SignedContent {
        OpenSSLErrors.clear()
        var cms = CMS_ContentInfo_new_ex(context.handle, nil)
        let decoded: OpaquePointer?
        do {
            decoded = try MemoryBIO.reading(bytes) { d2i_CMS_bio($0, &cms) }
        } catch {
            if let cms { CMS_ContentInfo_free(cms) }
            throw error as? SigningError ?? .openSSL(operation: "read \(source)", detail: "no detail from OpenSSL")
        }
        guard let decoded else {
            // A failed decode frees the object and clears `cms`; a file too short to read leaves both.
            if let cms { CMS_ContentInfo_free(cms) }
            if OpenSSLErrors.drain().contains(library: ERR_LIB_ASN1, reason: ASN1_R_NOT_ENOUGH_DATA) {
                throw .truncatedProfile(path: source, size: bytes.count)
            }
            throw .profileNotSigned(path: source, looksLike: FileKind.guess(bytes))
        }
        guard OBJ_obj2nid(CMS_get0_type(decoded)) == NID_pkcs7_signed,
              let signers = CMS_get0_SignerInfos(decoded), lanes_sk_CMS_SignerInfo_num(signers) > 0 else {
            CMS_ContentInfo_free(decoded)
            throw .profileNotSigned(path: source, looksLike: "CMS data without a signature")
        }
        return SignedContent(handle: decoded)
    }

    /// Checks that the signature matches the content (using the signer certificate the file
    /// carries, without judging that certificate) and returns the content.
    func verifiedContent(source: String) throws(SigningError) -> [UInt8] {
        OpenSSLErrors.clear()
        var verified: Int32 = 0
        let content: [UInt8]
        do {
            content = try MemoryBIO.writing { output in
                verified = CMS_verify(handle, nil, nil, nil, output, UInt32(CMS_NO_SIGNER_CERT_VERIFY | CMS_BINARY))
            }
        } catch {
            throw error as? SigningError ?? .openSSL(operation: "verify \(source)", detail: "no detail from OpenSSL")
        }
        guard verified == 1 else { throw .profileSignatureInvalid(path: source, detail: OpenSSLErrors.drain().summary) }
        return content
    }

    /// Checks that the signer certificate chains to `trust`.
    func verifySigner(against trust: TrustStore, context: OpenSSLContext) throws(SigningError) -> ProfileSignature {
        let store = try trust.makeStore(context: context)
        defer { X509_STORE_free(store) }
        OpenSSLErrors.clear()
        // CMS_NO_CONTENT_VERIFY: the content was checked already; this pass judges the signer only.
        let result = CMS_verify(handle, nil, store, nil, nil, UInt32(CMS_BINARY | CMS_NO_CONTENT_VERIFY))
        let signer = signerName() ?? "unknown signer"
        guard result == 1 else {
            return .notVerified(reason: "signer '\(signer)' does not chain to \(trust.displayName) (\(OpenSSLErrors.drain().summary))")
        }
        return .verified(signer: signer)
    }

    private func signerName() -> String? {
        guard let signers = CMS_get0_signers(handle) else { return nil }
        defer { lanes_sk_X509_free(signers) }
        guard lanes_sk_X509_num(signers) > 0, let first = lanes_sk_X509_value(signers, 0) else { return nil }
        return X509Name.entry(X509_get_subject_name(first), nid: NID_commonName)
    }
}
