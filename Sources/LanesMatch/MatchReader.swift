#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import LanesSigning

/// Decrypts and chooses from a match storage, in memory: nothing clear is written anywhere.
public struct MatchReader: Sendable {
    public let files: MatchFiles
    let password: String
    /// Where the password came from, for messages (`MATCH_PASSWORD`).
    public let passwordVariable: String

    public init(files: MatchFiles, password: String, passwordVariable: String = "MATCH_PASSWORD") {
        self.files = files
        self.password = password
        self.passwordVariable = passwordVariable
    }

    /// The clear bytes of a stored file; a wrong password names the variable and the file.
    public func decrypt(_ path: String) throws(MatchError) -> [UInt8] {
        try decryptWithVersion(path).clear
    }

    public func decryptWithVersion(_ path: String) throws(MatchError) -> (clear: [UInt8], version: MatchEncryption.Version) {
        guard let stored = files[path] else { throw .notFound("\(path) is not in the match storage", hint: "") }
        let ext = MatchLayout.fileExtension(path)
        guard let result = try MatchEncryption.decrypt(stored, password: password, file: path, accept: { Self.plausible($0, extension: ext) }) else {
            throw .wrongPassword(variable: passwordVariable, file: path)
        }
        guard Self.plausible(result.clear, extension: ext) else {
            throw .unreadable(file: path, problem: "it is not a \(Self.describe(ext))")
        }
        return result
    }

    /// Whether decrypted bytes are what the extension says: a DER certificate, a PEM key or
    /// PKCS#12 file, a CMS-signed profile. v1 files have no other integrity check.
    public static func plausible(_ clear: [UInt8], extension ext: String) -> Bool {
        switch ext {
        case "cer": return (try? Certificate(der: clear)) != nil
        case "p12": return SigningIdentity.isPEMPrivateKey(clear) || DER.isWholeSequence(clear)
        case "mobileprovision", "provisionprofile": return DER.isWholeSequence(clear)
        default: return true
        }
    }

    static func describe(_ ext: String) -> String {
        switch ext {
        case "cer": "DER certificate"
        case "p12": "PEM private key or PKCS#12 file"
        default: "signed provisioning profile"
        }
    }

    /// The newest certificate of `type` valid at `now` with its private key. Expired and
    /// not-yet-valid certificates (and ones of another team, or without a key) are skipped
    /// with a warning naming the file.
    public func chooseCertificate(type: MatchType, teamID: String?, certificateID: String? = nil,
                                  at now: Date) throws(MatchError) -> MatchCertificate {
        let folder = MatchLayout.certificateFolder(type)
        let certificates = files.paths(in: folder, extension: "cer")
        guard !certificates.isEmpty else {
            throw .notFound("no certificate in \(folder)/ of the match storage for type \(type.rawValue)",
                            hint: "run `lanes match import --type \(type.rawValue) --cert X.cer --p12 X.p12` or fastlane match once with readonly off")
        }
        var warnings: [String] = []
        var candidates: [(path: String, certificate: Certificate)] = []
        for path in certificates {
            let id = String(path.dropFirst(folder.count + 1).dropLast(4))
            if let certificateID, id != certificateID { continue }
            let clear = try decrypt(path)
            let certificate: Certificate
            do { certificate = try Certificate(der: clear, source: path) } catch {
                throw .unreadable(file: path, problem: "\(error)")
            }
            let keyPath = String(path.dropLast(4)) + ".p12"
            if now >= certificate.notAfter {
                warnings.append("\(path): skipped, certificate '\(certificate.displayName)' expired on \(certificate.notAfter.formatted(.iso8601))")
            } else if now < certificate.notBefore {
                warnings.append("\(path): skipped, certificate '\(certificate.displayName)' is not valid before \(certificate.notBefore.formatted(.iso8601))")
            } else if let teamID, let team = certificate.teamIdentifier, team != teamID {
                warnings.append("\(path): skipped, certificate of team \(team), not \(teamID)")
            } else if files[keyPath] == nil {
                warnings.append("\(path): skipped, its private key \(keyPath) is missing")
            } else {
                candidates.append((path, certificate))
            }
        }
        guard let chosen = candidates.max(by: { $0.certificate.notBefore < $1.certificate.notBefore }) else {
            throw .notFound("no valid \(type.certificateFolder) certificate in the match storage (\(certificates.count) found, none usable)",
                            hint: warnings.isEmpty ? "check certificate_id" : warnings.joined(separator: "; "))
        }
        return MatchCertificate(certificate: chosen.certificate, path: chosen.path,
                                keyPath: String(chosen.path.dropLast(4)) + ".p12", warnings: warnings)
    }

    /// The identity (certificate and key) of a chosen certificate, read in memory.
    public func identity(for chosen: MatchCertificate) throws(MatchError) -> SigningIdentity {
        let key = try decrypt(chosen.keyPath)
        do {
            let identity = SigningIdentity.isPEMPrivateKey(key)
                ? try SigningIdentity.pair(certificateDER: chosen.certificate.der, privateKeyPEM: key, source: chosen.keyPath)
                : try PKCS12File.read(bytes: key, password: "", source: chosen.keyPath)
            guard identity.certificate.sha1 == chosen.certificate.sha1 else {
                throw MatchError.unreadable(file: chosen.keyPath, problem: "it holds certificate '\(identity.certificate.displayName)', not the one in \(chosen.path)")
            }
            return identity
        } catch let error as MatchError {
            throw error
        } catch {
            throw .unreadable(file: chosen.keyPath, problem: "\(error)")
        }
    }

    /// The stored path and clear bytes of the profile for one app identifier.
    public func profile(type: MatchType, appIdentifier: String, platform: MatchPlatform) throws(MatchError) -> (path: String, bytes: [UInt8]) {
        guard let path = MatchLayout.profilePath(type: type, appIdentifier: appIdentifier, platform: platform) else {
            throw .badOption(name: "type", problem: "\(type.rawValue) has no provisioning profiles")
        }
        guard files[path] != nil else {
            let folder = "profiles/\(type.rawValue)"
            let present = files.files.keys.filter { $0.hasPrefix(folder + "/") }.sorted()
            throw .notFound("no profile \(path) in the match storage",
                            hint: present.isEmpty ? "the storage has no \(folder)/ folder" : "profiles there: \(present.prefix(10).map { String($0.dropFirst(folder.count + 1)) }.joined(separator: ", "))")
        }
        return (path, try decrypt(path))
    }
}

/// The certificate chosen from the storage (its facts; the key is read separately).
public struct MatchCertificate: Sendable {
    public let certificate: Certificate
    /// Stored path of the `.cer`.
    public let path: String
    /// Stored path of its `.p12`.
    public let keyPath: String
    /// One line per certificate that was skipped, naming its file.
    public let warnings: [String]

    public init(certificate: Certificate, path: String, keyPath: String, warnings: [String]) {
        self.certificate = certificate
        self.path = path
        self.keyPath = keyPath
        self.warnings = warnings
    }
}

/// Just enough DER to tell whether bytes are one complete SEQUENCE (a PKCS#12 file, a CMS message).
enum DER {
    static func isWholeSequence(_ bytes: [UInt8]) -> Bool {
        guard bytes.count >= 2, bytes[0] == 0x30 else { return false }
        let first = Int(bytes[1])
        // BER's indefinite length (Apple's profiles, some PKCS#12 exports) ends with two zero bytes.
        if first == 0x80 { return bytes.count >= 4 && bytes.suffix(2).allSatisfy { $0 == 0 } }
        if first < 0x80 { return bytes.count == 2 + first }
        let count = first & 0x7F
        guard count >= 1, count <= 4, bytes.count > 2 + count else { return false }
        let length = bytes[2..<(2 + count)].reduce(0) { $0 << 8 | Int($1) }
        return bytes.count == 2 + count + length
    }
}
