#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// Everything that can go wrong while reading signing material, each case saying what was wrong,
/// in which file, and what to do about it.
public enum SigningError: Error, Sendable, CustomStringConvertible {
    /// The file could not be opened or read.
    case fileUnreadable(path: String, reason: String)
    /// A file could not be written.
    case fileUnwritable(path: String, reason: String)
    /// The PKCS#12 file ends early.
    case truncatedPKCS12(path: String, size: Int)
    /// The file is not PKCS#12 at all; `looksLike` names what it seems to be, when recognisable.
    case notPKCS12(path: String, looksLike: String?)
    /// MAC verification failed: OpenSSL cannot tell a wrong password from a damaged file.
    case wrongPasswordOrDamaged(path: String)
    /// The PKCS#12 uses an algorithm this OpenSSL cannot decrypt.
    case unsupportedAlgorithm(path: String, detail: String)
    case noPrivateKey(path: String)
    case noCertificate(path: String)
    case keyDoesNotMatchCertificate(path: String, certificates: [String])
    /// A certificate is past its notAfter date.
    case certificateExpired(path: String, commonName: String, notAfter: Date)
    case certificateNotYetValid(path: String, commonName: String, notBefore: Date)
    case invalidCertificate(path: String, detail: String)
    /// The profile file ends early.
    case truncatedProfile(path: String, size: Int)
    /// The profile is not a CMS SignedData structure (a bare plist, or something else).
    case profileNotSigned(path: String, looksLike: String?)
    /// The CMS signature does not match the content: the file was altered after signing.
    case profileSignatureInvalid(path: String, detail: String)
    /// The signed payload is not a property list or lacks a field lanes needs.
    case profileField(path: String, field: String, problem: String)
    /// A trust store file could not be used.
    case trustStoreUnreadable(path: String, detail: String)
    case openSSLProviderMissing(name: String, detail: String)
    case openSSL(operation: String, detail: String)
    case keychain(name: String, problem: String)
    case identityNotFound(keychain: String, query: String)
    /// The identity is in the keychain, but `security` does not count it valid (`reason`, such as
    /// CSSMERR_TP_NOT_TRUSTED: its certificate chain does not reach a trusted root).
    case identityNotTrusted(keychain: String, identity: String, reason: String)

    public var description: String {
        switch self {
        case let .fileUnreadable(path, reason):
            "\(path): cannot read file: \(reason)"
        case let .fileUnwritable(path, reason):
            "\(path): cannot write file: \(reason)"
        case let .truncatedPKCS12(path, size):
            "\(path): the PKCS#12 file is truncated (only \(size) bytes; OpenSSL ran out of data); copy or export it again"
        case let .notPKCS12(path, looksLike):
            "\(path): not a PKCS#12 file\(looksLike.map { " (it looks like \($0))" } ?? ""); export the certificate together with its private key as .p12"
        case let .wrongPasswordOrDamaged(path):
            "\(path): wrong password, or the file is damaged (the PKCS#12 integrity check failed, and OpenSSL cannot tell which); check the password variable, then re-export the file"
        case let .unsupportedAlgorithm(path, detail):
            "\(path): encrypted with an algorithm this OpenSSL cannot decrypt (\(detail)); re-export it with 3DES/SHA-1 or AES"
        case let .noPrivateKey(path):
            "\(path): contains no private key; export the identity (certificate with its key) from Keychain Access, not the certificate alone"
        case let .noCertificate(path):
            "\(path): contains a private key but no certificate; export the identity (certificate with its key)"
        case let .keyDoesNotMatchCertificate(path, certificates):
            "\(path): the private key does not belong to any certificate in the file (\(certificates.joined(separator: "; "))); export the matching certificate and key together"
        case let .certificateExpired(path, name, notAfter):
            "\(path): certificate '\(name)' expired on \(ISO8601.string(notAfter)); create a new certificate and export it"
        case let .certificateNotYetValid(path, name, notBefore):
            "\(path): certificate '\(name)' is not valid before \(ISO8601.string(notBefore)); check the machine's clock"
        case let .invalidCertificate(path, detail):
            "\(path): not a readable X.509 certificate (\(detail))"
        case let .truncatedProfile(path, size):
            "\(path): the provisioning profile is truncated (only \(size) bytes); download it again"
        case let .profileNotSigned(path, looksLike):
            "\(path): not a signed provisioning profile (no CMS signature\(looksLike.map { "; it is \($0)" } ?? "")); download the .mobileprovision from the developer portal"
        case let .profileSignatureInvalid(path, detail):
            "\(path): signature invalid, the profile was altered after signing (\(detail)); download it again"
        case let .profileField(path, field, problem):
            "\(path): field \(field) \(problem)"
        case let .trustStoreUnreadable(path, detail):
            "\(path): cannot load trusted certificates (\(detail)); pass a PEM file of CA certificates"
        case let .openSSLProviderMissing(name, detail):
            "OpenSSL's \(name) provider could not be loaded (\(detail)); install the OpenSSL 3 package that ships ossl-modules/\(name).so"
        case let .openSSL(operation, detail):
            "OpenSSL failed to \(operation): \(detail)"
        case let .keychain(name, problem):
            "keychain '\(name)': \(problem)"
        case let .identityNotFound(keychain, query):
            "keychain '\(keychain)': no identity matching \(query)"
        case let .identityNotTrusted(keychain, identity, reason) where reason == "CSSMERR_TP_NOT_TRUSTED":
            "keychain '\(keychain)': identity \(identity) was imported, but its certificate chain is not trusted (CSSMERR_TP_NOT_TRUSTED); "
                + "install Apple's WWDR intermediate certificate that issued it (https://www.apple.com/certificateauthority/, "
                + "e.g. `security import AppleWWDRCAG3.cer -k ~/Library/Keychains/login.keychain-db`), or for a test certificate its own root"
        case let .identityNotTrusted(keychain, identity, reason):
            "keychain '\(keychain)': identity \(identity) was imported, but macOS does not count it valid for code signing (\(reason))"
        }
    }
}

/// ISO-8601 UTC timestamps, the one date format lanes prints.
enum ISO8601 {
    static func string(_ date: Date) -> String {
        date.formatted(.iso8601)
    }
}
