#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesSigning

/// `install_provisioning_profile`: checks a .mobileprovision (signature intact, not expired;
/// when given: signer trusted, app identifier covered, imported certificate listed and of the
/// same team) and installs it under its UUID.
public struct InstallProvisioningProfile: Step {
    public static let definition = StepDefinition(
        id: "install_provisioning_profile",
        summary: "Check a provisioning profile (and the certificate the lane imported) and install it",
        category: .signing,
        examples: [StepExample(
            swift: """
                try await installProvisioningProfile(path: "signing/Brewer_Staging.mobileprovision",
                                                     appIdentifier: "works.sth.brewer.staging")
                """,
            commandLine: ["path:signing/Brewer_Staging.mobileprovision", "app_identifier:works.sth.brewer.staging"])]
    )

    @StepOption("path", "The .mobileprovision file", env: "PROVISIONING_PROFILE_PATH")
    var path: String
    @StepOption("trust", "PEM file of CA certificates the profile's signer must chain to (Apple's root CA)", env: "LANES_PROFILE_TRUST")
    var trust: String?
    @StepOption("app_identifier", "Bundle identifier the profile must cover", env: "APP_IDENTIFIER")
    var appIdentifier: String?

    public init() {}

    public var banner: String { "Install provisioning profile \(path)" }

    public func run(in context: StepContext) async throws -> InstalledProfile {
        let path = context.resolve(self.path)
        return try Self.checkAndInstall(bytes: SigningFile.contents(of: path), source: path, appIdentifier: appIdentifier,
                                        trust: trust.map { context.resolve($0) }, context: context)
    }

    /// The checks before a build (signature, expiry, app identifier, the lane's imported
    /// certificate listed and of its team), then the install under the profile's UUID; shared
    /// with `sync_code_signing`, which holds the profile in memory.
    static func checkAndInstall(bytes: [UInt8], source: String, appIdentifier: String?, trust: String?,
                                context: StepContext) throws -> InstalledProfile {
        // The identity imported earlier in the lane: the profile must list it and belong to its team.
        let certificate = context.values[ImportedSigningCertificate.self]
        let trustStore = trust.map { TrustStore(pemFiles: [$0]) }
        let profile = try ProvisioningProfileReader.read(bytes: bytes, source: source, trust: trustStore)
        // With the imported certificate, the full pre-build check; without, the profile's own.
        let check = SigningCheck(certificate: certificate?.certificate, certificatePath: certificate?.certificatePath ?? "",
                                 profile: profile, requireVerifiedSignature: trustStore != nil)
        let problems = check.problems(appIdentifier: appIdentifier, at: Date()).map(\.description)
        guard problems.isEmpty else { throw ValidationErrors(kind: .configuration, problems: problems) }

        let installed = try ProfileInstaller.install(bytes: bytes, source: source, trust: trustStore,
                                                     into: SigningConfiguration.profilesDirectory(context: context)).installedPath
        context.log.line("installed '\(profile.name)' (\(profile.type.rawValue), UUID \(profile.uuid), team \(profile.teamIdentifier ?? "none"), expires \(profile.expirationDate.formatted(.iso8601))) at \(installed)")
        if case .notVerified(let reason) = profile.signature { context.log.line("note: signature not verified: \(reason)") }
        let result = InstalledProfile(profile: profile, installedPath: installed)
        context.values[InstalledSigningProfile.self] = result
        return result
    }
}

/// The profile the lane installed last; `build_app` and `check_ipa` check that the .ipa embeds it.
public enum InstalledSigningProfile: LaneValueKey {
    public typealias Value = InstalledProfile
}
