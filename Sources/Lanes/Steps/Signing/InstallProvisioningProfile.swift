import FoundationEssentials
import LanesSigning

/// `install_provisioning_profile`: checks a .mobileprovision (signature intact, not expired,
/// optionally signer trusted and app identifier covered) and installs it under its UUID.
public struct InstallProvisioningProfile: Step {
    public static let profilePathOption = StepOption<String>("profile_path", "The .mobileprovision file", env: "PROVISIONING_PROFILE_PATH")
    public static let trustOption = StepOption<String>.optional(
        "trust", "PEM file of CA certificates the profile's signer must chain to (Apple's root CA)", env: "LANES_PROFILE_TRUST")
    public static let appIdentifierOption = StepOption<String>.optional(
        "app_identifier", "Bundle identifier the profile must cover", env: "APP_IDENTIFIER")

    public static let info = StepInfo(
        id: "install_provisioning_profile",
        summary: "Check a provisioning profile and install it where signing looks for it",
        options: [profilePathOption.info, trustOption.info, appIdentifierOption.info],
        examples: [StepExample(
            swift: """
                try await installProvisioningProfile(path: "signing/Brewer_Staging.mobileprovision",
                                                     appIdentifier: "works.sth.brewer.staging")
                """,
            commandLine: ["profile_path:signing/Brewer_Staging.mobileprovision", "app_identifier:works.sth.brewer.staging"])]
    )

    public let profilePath: String
    public let trust: String?
    public let appIdentifier: String?

    public init(profilePath: String, trust: String? = nil, appIdentifier: String? = nil) {
        self.profilePath = profilePath
        self.trust = trust
        self.appIdentifier = appIdentifier
    }

    public init(options: OptionValues) throws {
        self.init(profilePath: try options[Self.profilePathOption], trust: try options.optional(Self.trustOption),
                  appIdentifier: try options.optional(Self.appIdentifierOption))
    }

    public var banner: String { "Install provisioning profile \(profilePath)" }

    public func run(in context: StepContext) async throws -> InstalledProfile {
        let path = context.resolve(profilePath)
        let trustStore = trust.map { TrustStore(pemFiles: [context.resolve($0)]) }
        let profile: ProvisioningProfile
        do {
            profile = try ProvisioningProfileReader.read(path: path, trust: trustStore)
        } catch {
            throw LanesError(.configuration, error.description)
        }
        var problems: [String] = []
        if profile.isExpired(at: Date()) {
            problems.append("\(path): ExpirationDate: the profile expired on \(profile.expirationDate.formatted(.iso8601)); download a renewed one")
        }
        if trustStore != nil, case .notVerified(let reason) = profile.signature {
            problems.append("\(path): signature not verified: \(reason)")
        }
        if let appIdentifier, !ApplicationIdentifier(profile.applicationIdentifier)
            .matches(bundleID: appIdentifier, prefixes: profile.applicationIdentifierPrefixes + profile.teamIdentifiers) {
            problems.append("\(path): Entitlements.application-identifier: '\(profile.applicationIdentifier)' does not cover app identifier '\(appIdentifier)'")
        }
        guard problems.isEmpty else { throw ValidationErrors(kind: .configuration, problems: problems) }

        let installed: String
        do {
            installed = try ProfileInstaller.install(path: path, trust: trustStore,
                                                     into: SigningConfiguration.profilesDirectory(context: context)).installedPath
        } catch let error as SigningError {
            throw LanesError(.environment, error.description)
        }
        context.log.line("installed '\(profile.name)' (\(profile.type.rawValue), UUID \(profile.uuid), team \(profile.teamIdentifier ?? "none"), expires \(profile.expirationDate.formatted(.iso8601))) at \(installed)")
        if case .notVerified(let reason) = profile.signature { context.log.line("note: signature not verified: \(reason)") }
        return InstalledProfile(profile: profile, installedPath: installed)
    }
}
