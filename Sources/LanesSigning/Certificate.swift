#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
internal import COpenSSL
internal import LanesPlatform

/// The facts lanes needs about an X.509 certificate, read once through OpenSSL.
///
/// Fingerprints and the serial are uppercase hexadecimal without separators, the spelling
/// `security find-identity` prints for SHA-1, so values can be compared and pasted directly.
public struct Certificate: Sendable, Hashable {
    /// The DER encoding the facts were read from.
    public let der: [UInt8]
    /// The subject's common name: the signing identity, e.g. "iPhone Distribution: Example Corp (ABCDE12345)".
    public let commonName: String?
    /// The subject's organizational unit, which Apple sets to the team identifier.
    public let teamIdentifier: String?
    public let organization: String?
    /// The issuer's common name.
    public let issuerCommonName: String?
    /// The serial number in uppercase hex.
    public let serialNumber: String
    public let sha1: String
    public let sha256: String
    public let notBefore: Date
    public let notAfter: Date
    /// Whether the extended key usage extension allows code signing.
    public let allowsCodeSigning: Bool

    /// Reads a DER-encoded certificate. `source` names it in errors.
    public init(der: [UInt8], source: String = "certificate") throws(SigningError) {
        OpenSSLRuntime.start()
        OpenSSLErrors.clear()
        let handle: OpaquePointer? = der.withUnsafeBufferPointer { buffer in
            var cursor: UnsafePointer<UInt8>? = buffer.baseAddress
            return d2i_X509(nil, &cursor, buffer.count)
        }
        guard let handle else { throw .invalidCertificate(path: source, detail: OpenSSLErrors.drain().summary) }
        defer { X509_free(handle) }
        try self.init(handle: handle, source: source)
    }

    /// Reads the first certificate of a PEM text.
    public init(pem: [UInt8], source: String = "certificate") throws(SigningError) {
        OpenSSLRuntime.start()
        OpenSSLErrors.clear()
        let handle: OpaquePointer?
        do {
            handle = try MemoryBIO.reading(pem) { PEM_read_bio_X509($0, nil, nil, nil) }
        } catch {
            throw .invalidCertificate(path: source, detail: "\(error)")
        }
        guard let handle else { throw .invalidCertificate(path: source, detail: OpenSSLErrors.drain().summary) }
        defer { X509_free(handle) }
        try self.init(handle: handle, source: source)
    }

    /// Reads the facts of an OpenSSL certificate handle the caller keeps owning.
    init(handle: OpaquePointer, source: String) throws(SigningError) {
        var derPointer: UnsafeMutablePointer<UInt8>?
        let length = i2d_X509(handle, &derPointer)
        guard length > 0, let derPointer else {
            throw .invalidCertificate(path: source, detail: OpenSSLErrors.drain().summary)
        }
        der = Array(UnsafeBufferPointer(start: derPointer, count: Int(length)))
        lanes_OPENSSL_free(derPointer)

        let subject = X509_get_subject_name(handle)
        commonName = X509Name.entry(subject, nid: NID_commonName)
        teamIdentifier = X509Name.entry(subject, nid: NID_organizationalUnitName)
        organization = X509Name.entry(subject, nid: NID_organizationName)
        issuerCommonName = X509Name.entry(X509_get_issuer_name(handle), nid: NID_commonName)
        serialNumber = Self.hexSerial(of: handle)
        sha1 = MessageDigest.hex(der, .sha1, uppercase: true)
        sha256 = MessageDigest.hex(der, .sha256, uppercase: true)
        guard let notBefore = ASN1Time.date(X509_get0_notBefore(handle)),
              let notAfter = ASN1Time.date(X509_get0_notAfter(handle)) else {
            throw .invalidCertificate(path: source, detail: "unreadable validity dates")
        }
        self.notBefore = notBefore
        self.notAfter = notAfter
        let hasExtendedKeyUsage = (X509_get_extension_flags(handle) & UInt32(EXFLAG_XKUSAGE)) != 0
        allowsCodeSigning = hasExtendedKeyUsage && (X509_get_extended_key_usage(handle) & UInt32(XKU_CODE_SIGN)) != 0
    }

    /// The certificate as PEM text.
    public var pem: String {
        let base64 = Data(der).base64EncodedString()
        var lines = ["-----BEGIN CERTIFICATE-----"]
        var index = base64.startIndex
        while index < base64.endIndex {
            let end = base64.index(index, offsetBy: 64, limitedBy: base64.endIndex) ?? base64.endIndex
            lines.append(String(base64[index..<end]))
            index = end
        }
        lines.append("-----END CERTIFICATE-----")
        return lines.joined(separator: "\n") + "\n"
    }

    /// A name for messages: the common name, or the SHA-1 when the subject has none.
    public var displayName: String { commonName ?? "SHA-1 \(sha1)" }

    private static func hexSerial(of handle: OpaquePointer) -> String {
        guard let number = ASN1_INTEGER_to_BN(X509_get0_serialNumber(handle), nil) else { return "" }
        defer { BN_free(number) }
        guard let text = BN_bn2hex(number) else { return "" }
        defer { lanes_OPENSSL_free(text) }
        return String(cString: text).uppercased()
    }
}

enum X509Name {
    /// The first entry of `nid` in `name` as UTF-8, or nil when absent.
    static func entry(_ name: OpaquePointer?, nid: Int32) -> String? {
        guard let name else { return nil }
        let index = X509_NAME_get_index_by_NID(name, nid, -1)
        guard index >= 0, let entry = X509_NAME_get_entry(name, index),
              let data = X509_NAME_ENTRY_get_data(entry) else { return nil }
        var utf8: UnsafeMutablePointer<UInt8>?
        let length = ASN1_STRING_to_UTF8(&utf8, data)
        guard length >= 0, let utf8 else { return nil }
        defer { lanes_OPENSSL_free(utf8) }
        return String(decoding: UnsafeBufferPointer(start: utf8, count: Int(length)), as: UTF8.self)
    }
}

enum ASN1Time {
    static func date(_ time: UnsafePointer<ASN1_TIME>?) -> Date? {
        guard let time else { return nil }
        var parts = tm()
        guard ASN1_TIME_to_tm(time, &parts) == 1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(timegm(&parts)))
    }
}

