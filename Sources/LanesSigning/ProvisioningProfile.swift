#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// What kind of distribution a profile allows, decided as Apple and fastlane do from the
/// entitlements and device lists.
public enum ProfileType: String, Sendable, Codable, CaseIterable {
    case development
    case adHoc = "ad-hoc"
    case appStore = "app-store"
    case enterprise

    /// ProvisionsAllDevices → enterprise (in-house); a device list with get-task-allow →
    /// development, without it → ad hoc; no devices at all → App Store.
    public static func of(provisionsAllDevices: Bool, provisionedDevices: [String]?, getTaskAllow: Bool) -> ProfileType {
        if provisionsAllDevices { return .enterprise }
        if let devices = provisionedDevices, !devices.isEmpty { return getTaskAllow ? .development : .adHoc }
        return .appStore
    }
}

/// How far a profile's signature could be checked.
public enum ProfileSignature: Sendable, Equatable {
    /// The signature is intact and its signer chains to the trust store.
    case verified(signer: String)
    /// The signature is intact (the content was not altered), but the signer was not checked
    /// against a trust store: none was given, or the signer does not chain to it.
    case notVerified(reason: String)

    public var isVerified: Bool {
        if case .verified = self { return true }
        return false
    }
}

/// A decoded `.mobileprovision`.
public struct ProvisioningProfile: Sendable {
    /// The file it was read from.
    public let path: String
    public let name: String
    public let uuid: String
    public let teamIdentifiers: [String]
    public let teamName: String?
    public let appIDName: String?
    /// The `application-identifier` entitlement, team prefix included: `ABCDE12345.works.sth.brewer`
    /// or a wildcard such as `ABCDE12345.*`.
    public let applicationIdentifier: String
    public let applicationIdentifierPrefixes: [String]
    public let creationDate: Date?
    public let expirationDate: Date
    public let developerCertificates: [Certificate]
    /// nil when the profile has no ProvisionedDevices key.
    public let provisionedDevices: [String]?
    public let provisionsAllDevices: Bool
    public let getTaskAllow: Bool
    public let platforms: [String]
    public let signature: ProfileSignature
    /// The signed plist, exactly as it was signed.
    public let payload: [UInt8]

    public var type: ProfileType {
        .of(provisionsAllDevices: provisionsAllDevices, provisionedDevices: provisionedDevices, getTaskAllow: getTaskAllow)
    }

    /// The team that owns the profile (the first TeamIdentifier).
    public var teamIdentifier: String? { teamIdentifiers.first }

    /// The application identifier without its team prefix: `works.sth.brewer` or `*`.
    public var bundleIdentifierPattern: String {
        ApplicationIdentifier(applicationIdentifier).bundlePattern(prefixes: applicationIdentifierPrefixes + teamIdentifiers)
    }

    public func isExpired(at now: Date) -> Bool { now >= expirationDate }

    /// Whether `certificate` is one of the profile's DeveloperCertificates.
    public func contains(_ certificate: Certificate) -> Bool {
        developerCertificates.contains { $0.sha1 == certificate.sha1 }
    }
}

/// An `application-identifier` entitlement with Apple's wildcard rule: a trailing `*` matches
/// any suffix (`ABCDE12345.*`, `ABCDE12345.works.sth.*`); nothing else is a wildcard.
public struct ApplicationIdentifier: Sendable, Hashable {
    public let value: String

    public init(_ value: String) {
        self.value = value
    }

    /// The identifier with a known team prefix removed.
    func bundlePattern(prefixes: [String]) -> String {
        for prefix in prefixes where value.hasPrefix(prefix + ".") {
            return String(value.dropFirst(prefix.count + 1))
        }
        return value
    }

    /// Whether the bundle identifier `bundleID` (without team prefix) is covered, given the team
    /// prefixes the identifier may start with.
    public func matches(bundleID: String, prefixes: [String]) -> Bool {
        let pattern = bundlePattern(prefixes: prefixes)
        if pattern.hasSuffix("*") {
            return bundleID.hasPrefix(String(pattern.dropLast()))
        }
        return pattern == bundleID
    }
}
