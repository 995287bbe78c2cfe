#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// One reason a certificate, a profile and an app identifier do not belong together.
public struct SigningProblem: Sendable, Equatable, CustomStringConvertible {
    /// The file the problem is in.
    public let file: String
    /// The field of that file: `DeveloperCertificates`, `TeamIdentifier`, `notAfter`, ...
    public let field: String
    public let message: String

    public init(file: String, field: String, message: String) {
        self.file = file
        self.field = field
        self.message = message
    }

    public var description: String { "\(file): \(field): \(message)" }
}

/// All problems found by `SigningCheck`, reported together.
public struct SigningCheckFailure: Error, Sendable, CustomStringConvertible {
    public let problems: [SigningProblem]

    public init(problems: [SigningProblem]) {
        self.problems = problems
    }

    public var description: String {
        "certificate and provisioning profile do not belong together:\n" + problems.map { "- \($0)" }.joined(separator: "\n")
    }
}

/// The checks to run before a build: the profile lists the certificate, covers the app
/// identifier, belongs to the certificate's team, and neither has expired. Without a
/// certificate only the profile's own checks run.
public struct SigningCheck: Sendable {
    public let certificate: Certificate?
    /// Where the certificate came from (the .p12), for messages.
    public let certificatePath: String
    public let profile: ProvisioningProfile
    /// When true, a profile whose signer was not verified against a trust store is a problem.
    public let requireVerifiedSignature: Bool

    public init(certificate: Certificate? = nil, certificatePath: String = "the imported certificate",
                profile: ProvisioningProfile, requireVerifiedSignature: Bool = false) {
        self.certificate = certificate
        self.certificatePath = certificatePath
        self.profile = profile
        self.requireVerifiedSignature = requireVerifiedSignature
    }

    /// Every problem, in a stable order; empty when everything belongs together. A nil
    /// `appIdentifier` skips the application identifier check.
    public func problems(appIdentifier: String?, at now: Date) -> [SigningProblem] {
        var problems: [SigningProblem] = []
        if let certificate, !profile.contains(certificate) {
            let listed = profile.developerCertificates.map(\.sha1).joined(separator: ", ")
            problems.append(SigningProblem(file: profile.path, field: "DeveloperCertificates",
                message: "does not contain certificate '\(certificate.displayName)' (SHA-1 \(certificate.sha1)) from \(certificatePath); it lists \(listed.isEmpty ? "none" : listed). Regenerate the profile with this certificate, or use the matching .p12"))
        }
        let identifier = ApplicationIdentifier(profile.applicationIdentifier)
        if let appIdentifier,
           !identifier.matches(bundleID: appIdentifier, prefixes: profile.applicationIdentifierPrefixes + profile.teamIdentifiers) {
            problems.append(SigningProblem(file: profile.path, field: "Entitlements.application-identifier",
                message: "'\(profile.applicationIdentifier)' does not cover app identifier '\(appIdentifier)'; use the profile made for this app"))
        }
        if let certificate {
            let team = certificate.teamIdentifier ?? ""
            if !profile.teamIdentifiers.contains(team) {
                problems.append(SigningProblem(file: profile.path, field: "TeamIdentifier",
                    message: "\(profile.teamIdentifiers) does not include the certificate's team '\(team.isEmpty ? "(no OU)" : team)' from \(certificatePath)"))
            }
            if now >= certificate.notAfter {
                problems.append(SigningProblem(file: certificatePath, field: "notAfter",
                    message: "certificate '\(certificate.displayName)' expired on \(ISO8601.string(certificate.notAfter))"))
            }
        }
        if profile.isExpired(at: now) {
            problems.append(SigningProblem(file: profile.path, field: "ExpirationDate",
                message: "the profile expired on \(ISO8601.string(profile.expirationDate)); download a renewed one"))
        }
        if requireVerifiedSignature, case .notVerified(let reason) = profile.signature {
            problems.append(SigningProblem(file: profile.path, field: "signature", message: "not verified: \(reason)"))
        }
        return problems
    }

    /// Throws all problems at once.
    public func validate(appIdentifier: String?, at now: Date) throws(SigningCheckFailure) {
        let found = problems(appIdentifier: appIdentifier, at: now)
        if !found.isEmpty { throw SigningCheckFailure(problems: found) }
    }
}
