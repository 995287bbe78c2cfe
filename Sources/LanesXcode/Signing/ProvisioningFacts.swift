/// What the signing settings need from a provisioning profile. `ProvisioningProfileReader` fills it
/// from the plist embedded in a `.mobileprovision`; a verified reader (LanesSigning) can map into it.
public struct ProvisioningFacts: Sendable, Hashable, Codable {
    /// How the profile distributes, which decides the signing identity it implies.
    public enum Kind: String, Sendable, Hashable, Codable {
        case development, adHoc = "ad-hoc", appStore = "app-store", enterprise
    }

    public let name: String
    public let uuid: String
    public let teamIdentifier: String
    public let teamName: String?
    /// `Entitlements.application-identifier`, team prefix included.
    public let applicationIdentifier: String?
    public let kind: Kind
    public let platforms: [String]
    /// `ExpirationDate` as seconds since 1970 (UTC).
    public let expiresAt: Double?
    /// Common names of `DeveloperCertificates`, when they could be read.
    public let certificateNames: [String]

    public init(name: String, uuid: String, teamIdentifier: String, teamName: String? = nil,
                applicationIdentifier: String? = nil, kind: Kind, platforms: [String] = [],
                expiresAt: Double? = nil, certificateNames: [String] = []) {
        self.name = name
        self.uuid = uuid
        self.teamIdentifier = teamIdentifier
        self.teamName = teamName
        self.applicationIdentifier = applicationIdentifier
        self.kind = kind
        self.platforms = platforms
        self.expiresAt = expiresAt
        self.certificateNames = certificateNames
    }

    /// Whether the profile's application identifier (`TEAM.works.sth.brewer`, or a wildcard
    /// `TEAM.works.sth.*`) covers a bundle identifier. True when the profile names no identifier.
    public func covers(bundleIdentifier: String) -> Bool {
        guard let applicationIdentifier else { return true }
        let prefix = teamIdentifier + "."
        let pattern = applicationIdentifier.hasPrefix(prefix) ? String(applicationIdentifier.dropFirst(prefix.count)) : applicationIdentifier
        if pattern == "*" { return true }
        if pattern.hasSuffix("*") { return bundleIdentifier.hasPrefix(String(pattern.dropLast())) }
        return pattern == bundleIdentifier
    }

    /// The `CODE_SIGN_IDENTITY` this profile implies when the caller does not name the certificate.
    ///
    /// Xcode and `codesign` pick the certificate whose common name starts with the identity, so the
    /// prefix before ':' of the profile's own certificates ("iPhone Distribution", "Apple Distribution")
    /// is what matches in every Xcode version. Without readable certificates: "Apple Development" or
    /// "Apple Distribution", the generic names Xcode 11+ writes and matches against both the unified
    /// and the older per-platform certificates.
    public var impliedIdentity: String {
        let prefixes = Set(certificateNames.compactMap { name -> String? in
            guard let colon = name.firstIndex(of: ":") else { return nil }
            return String(name[..<colon])
        })
        if prefixes.count == 1, let prefix = prefixes.first { return prefix }
        return kind == .development ? "Apple Development" : "Apple Distribution"
    }
}
