import ArgumentParser
import Foundation
import LanesPlatform
import LanesSigning

/// `lanes cert`: inspect a PKCS#12 signing identity and check it against a provisioning profile.
struct CertCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "cert",
        abstract: "Inspect PKCS#12 signing certificates.",
        subcommands: [Info.self, Check.self]
    )

    /// Options shared by the subcommands that open a .p12.
    struct P12Options: ParsableArguments {
        @Argument(help: "The .p12 file (certificate with private key).")
        var file: String

        @Option(help: ArgumentHelp("Environment variable holding the .p12 password (default: CERTIFICATE_PASSWORD, empty when unset). Passwords are never taken as arguments.",
                                   valueName: "VAR"))
        var passwordEnv: String?

        func readIdentity() throws -> SigningIdentity {
            let environment = ProcessInfo.processInfo.environment
            let variable = passwordEnv ?? "CERTIFICATE_PASSWORD"
            let password = environment[variable]
            if passwordEnv != nil, password == nil {
                throw SigningCLIFailure.badInput("environment variable \(variable) (named by --password-env) is not set; export it with the .p12 password")
            }
            do {
                return try PKCS12File.read(path: file, password: password ?? "")
            } catch {
                if case .wrongPasswordOrDamaged = error {
                    let source = password == nil ? "no password (\(variable) is unset)" : "the password from $\(variable)"
                    throw SigningCLIFailure.badInput("\(error)\n  hint: lanes used \(source)")
                }
                throw SigningCLIFailure.badInput(error.description)
            }
        }
    }

    struct Info: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "info",
            abstract: "Show the identity in a .p12: common name, team, fingerprints, validity.",
            discussion: "Fingerprints and the serial are uppercase hex without separators (as `security find-identity` prints SHA-1). Exits 1 when the certificate has expired.")

        @OptionGroup var p12: P12Options
        @Flag(help: "Print JSON (sorted keys; dates in ISO-8601).") var json = false
        @Option(help: "Warn when the certificate expires within this many days.") var warningDays = 30

        func run() async throws {
            try SigningCLIFailure.reporting {
                let identity = try p12.readIdentity()
                let now = Date()
                let report = CertificateReport(identity.certificate, chain: identity.chain, now: now)
                if json {
                    try SigningOutput.printJSON(report)
                } else {
                    SigningOutput.printFields(report.fields)
                }
                do {
                    if let warning = try ValidityPolicy(warningDays: warningDays).check(identity.certificate, from: p12.file, at: now) {
                        SigningOutput.printError("warning: \(warning)")
                    }
                } catch {
                    throw SigningCLIFailure.checkFailed(String(describing: error))
                }
            }
        }
    }

    struct Check: AsyncParsableCommand {
        static let configuration = CommandConfiguration(commandName: "check",
            abstract: "Check that a .p12, a provisioning profile and an app identifier belong together.",
            discussion: "Exits 0 only when the profile lists the certificate, covers the app identifier, belongs to the certificate's team, and neither has expired (and, with --trust, the profile's signer chains to the given CA).")

        @OptionGroup var p12: P12Options
        @Option(help: "The .mobileprovision file.") var profile: String
        @Option(help: "The bundle identifier to sign.") var appId: String
        @Option(help: "PEM file of CA certificates the profile signature must chain to.") var trust: String?

        func run() async throws {
            try SigningCLIFailure.reporting {
                let identity = try p12.readIdentity()
                let decoded: ProvisioningProfile
                do {
                    decoded = try ProvisioningProfileReader.read(path: profile, trust: trust.map { TrustStore(pemFiles: [$0]) })
                } catch {
                    throw SigningCLIFailure.badInput(String(describing: error))
                }
                let check = SigningCheck(certificate: identity.certificate, certificatePath: p12.file, profile: decoded,
                                         requireVerifiedSignature: trust != nil)
                let problems = check.problems(appIdentifier: appId, at: Date())
                guard problems.isEmpty else {
                    throw SigningCLIFailure.checkFailed(SigningCheckFailure(problems: problems).description)
                }
                print(TerminalText.visible("ok: '\(identity.certificate.displayName)' (SHA-1 \(identity.certificate.sha1)), profile '\(decoded.name)' (\(decoded.type.rawValue), \(decoded.uuid)) and app id \(appId) belong together"))
            }
        }
    }
}

/// The JSON and text shape of `lanes cert info`.
struct CertificateReport: Encodable {
    struct ChainEntry: Encodable {
        let commonName: String?
        let sha1: String
    }

    let commonName: String?
    let teamIdentifier: String?
    let organization: String?
    let issuer: String?
    let serialNumber: String
    let sha1: String
    let sha256: String
    let notBefore: Date
    let notAfter: Date
    let expired: Bool
    let daysUntilExpiry: Int
    let codeSigning: Bool
    let chain: [ChainEntry]

    init(_ certificate: Certificate, chain: [Certificate], now: Date) {
        commonName = certificate.commonName
        teamIdentifier = certificate.teamIdentifier
        organization = certificate.organization
        issuer = certificate.issuerCommonName
        serialNumber = certificate.serialNumber
        sha1 = certificate.sha1
        sha256 = certificate.sha256
        notBefore = certificate.notBefore
        notAfter = certificate.notAfter
        expired = now >= certificate.notAfter
        daysUntilExpiry = Int(certificate.notAfter.timeIntervalSince(now) / 86_400)
        codeSigning = certificate.allowsCodeSigning
        self.chain = chain.map { ChainEntry(commonName: $0.commonName, sha1: $0.sha1) }
    }

    var fields: [(String, String)] {
        [("Common name", commonName ?? "-"), ("Team identifier", teamIdentifier ?? "-"), ("Organization", organization ?? "-"),
         ("Issuer", issuer ?? "-"), ("Serial", serialNumber), ("SHA-1", sha1), ("SHA-256", sha256),
         ("Valid from", notBefore.formatted(.iso8601)), ("Valid until", notAfter.formatted(.iso8601)),
         ("Expired", expired ? "yes" : "no (\(daysUntilExpiry) days left)"), ("Code signing", codeSigning ? "yes" : "no"),
         ("Chain", chain.isEmpty ? "-" : chain.map { "\($0.commonName ?? "?") (\($0.sha1))" }.joined(separator: ", "))]
    }
}
