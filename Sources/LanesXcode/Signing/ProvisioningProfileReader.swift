internal import Foundation

/// Reads the facts of a `.mobileprovision` without verifying its signature: the file is DER CMS
/// `SignedData` with the XML plist as its content, so the plist is found by its `<?xml` ... `</plist>`
/// bytes. Verification belongs to LanesSigning; this reader only decides what to write.
public enum ProvisioningProfileReader {
    public struct Failure: Error, Sendable, CustomStringConvertible {
        public let path: String?
        public let reason: String
        public var description: String {
            "\(path ?? "provisioning profile"): \(reason); expected a .mobileprovision as Apple's developer portal issues it"
        }
    }

    public static func facts(fromProfile bytes: [UInt8], path: String? = nil) throws(Failure) -> ProvisioningFacts {
        guard bytes.first == 0x30 else {
            throw Failure(path: path, reason: "not a DER CMS envelope (a bare plist is not a signed profile)")
        }
        guard let start = find(Array("<?xml".utf8), in: bytes, from: 0),
              let endTag = find(Array("</plist>".utf8), in: bytes, from: start) else {
            throw Failure(path: path, reason: "no embedded XML property list found")
        }
        let plist = Data(bytes[start..<(endTag + "</plist>".utf8.count)])
        let object: Any
        do {
            object = try PropertyListSerialization.propertyList(from: plist, options: [], format: nil)
        } catch {
            throw Failure(path: path, reason: "the embedded property list does not parse: \(error.localizedDescription)")
        }
        guard let dictionary = object as? [String: Any] else { throw Failure(path: path, reason: "the embedded property list is not a dictionary") }
        return try facts(fromPlist: dictionary, path: path)
    }

    static func facts(fromPlist plist: [String: Any], path: String?) throws(Failure) -> ProvisioningFacts {
        guard let name = plist["Name"] as? String else { throw Failure(path: path, reason: "the profile has no Name") }
        guard let uuid = plist["UUID"] as? String else { throw Failure(path: path, reason: "the profile has no UUID") }
        let entitlements = plist["Entitlements"] as? [String: Any] ?? [:]
        guard let team = (plist["TeamIdentifier"] as? [String])?.first
                ?? entitlements["com.apple.developer.team-identifier"] as? String else {
            throw Failure(path: path, reason: "the profile has no TeamIdentifier")
        }
        let kind: ProvisioningFacts.Kind
        if entitlements["get-task-allow"] as? Bool == true {
            kind = .development
        } else if plist["ProvisionsAllDevices"] as? Bool == true {
            kind = .enterprise
        } else if plist["ProvisionedDevices"] != nil {
            kind = .adHoc
        } else {
            kind = .appStore
        }
        let certificates = (plist["DeveloperCertificates"] as? [Data]) ?? []
        return ProvisioningFacts(
            name: name, uuid: uuid, teamIdentifier: team, teamName: plist["TeamName"] as? String,
            applicationIdentifier: entitlements["application-identifier"] as? String, kind: kind,
            platforms: plist["Platform"] as? [String] ?? [], expiresAt: (plist["ExpirationDate"] as? Date)?.timeIntervalSince1970,
            certificateNames: certificates.compactMap { CertificateSubject.commonName(ofDER: Array($0)) })
    }

    private static func find(_ needle: [UInt8], in haystack: [UInt8], from start: Int) -> Int? {
        guard needle.count <= haystack.count else { return nil }
        var index = start
        while index + needle.count <= haystack.count {
            if haystack[index] == needle[0], haystack[index..<(index + needle.count)].elementsEqual(needle) { return index }
            index += 1
        }
        return nil
    }
}
