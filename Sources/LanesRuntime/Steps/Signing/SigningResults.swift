#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesSigning

/// What `import_certificate` leaves behind: the identity's facts and where it now lives.
public struct ImportedCertificate: Sendable {
    /// The certificate read from the .p12 (common name, team, fingerprints, validity).
    public let certificate: Certificate
    /// The .p12 it was read from.
    public let certificatePath: String
    /// The common name, which is what CODE_SIGN_IDENTITY names.
    public var signingIdentity: String { certificate.displayName }
    public var teamIdentifier: String? { certificate.teamIdentifier }
    public var sha1: String { certificate.sha1 }
    public let keychainName: String
    /// The keychain directory (Linux) or keychain file (macOS).
    public let keychainPath: String
    /// Whether the keychain is removed when the lane ends.
    public let deletedAtLaneEnd: Bool
    /// Set when the certificate expires within the warning window.
    public let expiryWarning: String?
}

/// What `install_provisioning_profile` leaves behind.
public struct InstalledProfile: Sendable {
    public let profile: ProvisioningProfile
    public let installedPath: String
    public var name: String { profile.name }
    public var uuid: String { profile.uuid }
    public var teamIdentifier: String? { profile.teamIdentifier }
    public var type: ProfileType { profile.type }
}

