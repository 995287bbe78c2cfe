#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesSigning
import LanesXcode

extension ProvisioningFacts {
    /// Reads a `.mobileprovision` through LanesSigning, which checks its CMS signature (an altered,
    /// unsigned or truncated profile is refused), and keeps what a project edit needs.
    public static func read(profileAt path: String, trust: String? = nil) throws -> ProvisioningFacts {
        do {
            let profile = try ProvisioningProfileReader.read(path: path, trust: trust.map { TrustStore(pemFiles: [$0]) })
            return ProvisioningFacts(profile)
        } catch {
            throw LanesError(.configuration, "\(error)", hint: "pass the .mobileprovision path relative to the Lanefile's folder")
        }
    }

    /// The facts of a profile LanesSigning decoded.
    public init(_ profile: ProvisioningProfile) {
        let kind: Kind = switch profile.type {
        case .development: .development
        case .adHoc: .adHoc
        case .appStore: .appStore
        case .enterprise: .enterprise
        }
        self.init(name: profile.name, uuid: profile.uuid, teamIdentifier: profile.teamIdentifier ?? "",
                  teamName: profile.teamName, applicationIdentifier: profile.applicationIdentifier, kind: kind,
                  platforms: profile.platforms, expiresAt: profile.expirationDate.timeIntervalSince1970,
                  certificateNames: profile.developerCertificates.compactMap(\.commonName))
    }
}
