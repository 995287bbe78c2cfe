#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif
import LanesSigning
import LanesPlatform

/// The signing material one Configuration of a Lanefile names, resolved to files.
public struct SigningMaterial: Sendable, Hashable {
    /// The configuration's name (its Swift type: `Staging`).
    public let configuration: String
    public let certificatePath: String
    /// The environment variable holding the certificate's password (its name, never its value).
    public let passwordVariable: String
    public let profilePath: String
    /// The PEM file the profile's signer is verified against; nil: the signature is not verified.
    public let trustPath: String?
    public let appIdentifier: String

    public init(configuration: String, certificatePath: String, passwordVariable: String, profilePath: String,
                trustPath: String?, appIdentifier: String) {
        self.configuration = configuration
        self.certificatePath = certificatePath
        self.passwordVariable = passwordVariable
        self.profilePath = profilePath
        self.trustPath = trustPath
        self.appIdentifier = appIdentifier
    }
}

/// When a certificate or profile stops working, and how far away that is.
public struct ExpiryCountdown: Sendable, Hashable, Codable {
    /// The certificate's common name or the profile's name.
    public let name: String
    public let path: String
    public let expires: Date
    /// Whole days left (negative once expired).
    public let daysLeft: Int
    public let severity: DoctorSeverity
}

/// One configuration's signing health: what the page shows and what the doctor prints.
public struct SigningHealth: Sendable, Hashable, Codable {
    public let configuration: String
    public let appIdentifier: String
    public let certificate: ExpiryCountdown?
    public let profile: ExpiryCountdown?
    public let findings: [DoctorFinding]

    public var severity: DoctorSeverity { findings.worst }
}

/// The doctor's signing checks for one configuration: the certificate file is present and opens
/// with its password variable, the profile is present, verified and covers the certificate, the
/// app identifier and the team; each expires no sooner than `warningDays` from now (a warning
/// inside the window, an error once expired). The daemon's daily expiry watch runs the same checks.
public struct SigningCheckup: Sendable {
    public var warningDays: Int

    public init(warningDays: Int = 30) {
        self.warningDays = warningDays
    }

    /// What to do about a .p12 that cannot be read, by cause: only a failed integrity check can
    /// be the password; a cut-short file, another kind of file or a FIFO needs the file replaced.
    static func certificateFix(_ error: SigningError, material: SigningMaterial) -> String {
        switch error {
        case .truncatedPKCS12:
            return "\(material.certificatePath) is cut short (an interrupted copy or download): export or copy it again"
        case .notPKCS12:
            return "\(material.certificatePath) is not a .p12: export the certificate with its private key as PKCS#12 (Keychain Access: Export, format .p12)"
        case .fileUnreadable:
            return "replace \(material.certificatePath) with the exported .p12 file"
        default:
            return "check that \(material.passwordVariable) holds the password \(material.certificatePath) was exported with"
        }
    }

    /// `variables` gives the password by its variable name (environment plus `--env` files).
    public func check(_ material: SigningMaterial, variables: [String: String], at now: Date) -> SigningHealth {
        let name = material.configuration
        var findings: [DoctorFinding] = []
        func add(_ subject: String, _ severity: DoctorSeverity, _ message: String, fix: String? = nil) {
            findings.append(DoctorFinding(.signing, "\(name) \(subject)", severity, message, fix: fix))
        }

        var certificate: Certificate?
        var certificateCountdown: ExpiryCountdown?
        if !isReadableFile(material.certificatePath) {
            add("certificate", .error, "\(material.certificatePath) is missing or unreadable",
                fix: "export the distribution certificate with its private key as \(material.certificatePath)")
        } else if let password = variables[material.passwordVariable] {
            do {
                let identity = try PKCS12File.read(path: material.certificatePath, password: password)
                certificate = identity.certificate
                let countdown = countdown(name: identity.certificate.displayName, path: material.certificatePath,
                                          expires: identity.certificate.notAfter, at: now)
                certificateCountdown = countdown
                add("certificate", countdown.severity, expiryMessage(countdown, what: "certificate"),
                    fix: countdown.severity == .ok ? nil : "create a new distribution certificate, export it as \(material.certificatePath), and regenerate the profiles that list it")
            } catch {
                add("certificate", .error, "\(error)", fix: Self.certificateFix(error, material: material))
            }
        } else {
            add("certificate", .error, "\(material.passwordVariable) (the password of \(material.certificatePath)) is not set",
                fix: "set \(material.passwordVariable) in the environment or in a .env file passed with --env")
        }

        var profileCountdown: ExpiryCountdown?
        if !isReadableFile(material.profilePath) {
            add("profile", .error, "\(material.profilePath) is missing or unreadable",
                fix: "download the provisioning profile for \(material.appIdentifier) as \(material.profilePath)")
        } else {
            do {
                let trust = material.trustPath.map { TrustStore(pemFiles: [$0]) }
                let profile = try ProvisioningProfileReader.read(path: material.profilePath, trust: trust)
                let countdown = countdown(name: profile.name, path: material.profilePath, expires: profile.expirationDate, at: now)
                profileCountdown = countdown
                add("profile", countdown.severity, expiryMessage(countdown, what: "profile"),
                    fix: countdown.severity == .ok ? nil : "renew the profile in the developer portal and download it as \(material.profilePath)")
                // Expiry is reported above, with the countdown; the rest of the pairing here.
                let check = SigningCheck(certificate: certificate, certificatePath: material.certificatePath, profile: profile,
                                         requireVerifiedSignature: trust != nil)
                for problem in check.problems(appIdentifier: material.appIdentifier, at: .distantPast) {
                    add("profile", .error, problem.description, fix: "use the profile made for \(material.appIdentifier) with this certificate")
                }
            } catch {
                add("profile", .error, "\(error)", fix: "download the profile again from the developer portal")
            }
        }
        return SigningHealth(configuration: name, appIdentifier: material.appIdentifier, certificate: certificateCountdown,
                             profile: profileCountdown, findings: findings)
    }

    private func countdown(name: String, path: String, expires: Date, at now: Date) -> ExpiryCountdown {
        let seconds = expires.timeIntervalSince(now)
        let days = Int((seconds / 86_400).rounded(.down))
        let severity: DoctorSeverity = seconds <= 0 ? .error : days < warningDays ? .warning : .ok
        return ExpiryCountdown(name: name, path: path, expires: expires, daysLeft: days, severity: severity)
    }

    private func expiryMessage(_ countdown: ExpiryCountdown, what: String) -> String {
        let date = countdown.expires.formatted(.iso8601.year().month().day())
        switch countdown.severity {
        case .error: return "\(what) '\(countdown.name)' expired on \(date) (\(countdown.path))"
        case .warning: return "\(what) '\(countdown.name)' expires in \(countdown.daysLeft) day(s), on \(date) (\(countdown.path))"
        case .ok: return "\(what) '\(countdown.name)' valid for \(countdown.daysLeft) more days, until \(date)"
        }
    }
}


private func isReadableFile(_ path: String) -> Bool { access(path, R_OK) == 0 }
