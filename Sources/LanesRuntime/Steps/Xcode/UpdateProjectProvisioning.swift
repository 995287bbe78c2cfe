import LanesXcode
internal import Foundation
internal import LanesPlatform

/// Points the selected targets and configurations at one provisioning profile: profile name and UUID,
/// its team, manual signing and a signing identity, with every `[sdk=...]` variant of those keys
/// updated so none overrides them, and `ProvisioningStyle = Manual` in TargetAttributes.
public struct UpdateProjectProvisioning: Step {
    public typealias Output = XcodeEditResult

    public static let definition = StepDefinition(
        id: "update_project_provisioning",
        summary: "Point Xcode targets at a provisioning profile: specifier, UUID, team, manual style, identity",
        category: .xcode,
        examples: [StepExample(
            swift: #"try await updateProjectProvisioning(xcodeproj: "Brewer.xcodeproj", profile: "signing/Brewer_Staging.mobileprovision", targetFilter: "^Brewer$", buildConfiguration: "Staging")"#,
            commandLine: ["xcodeproj:Brewer.xcodeproj", "profile:signing/Brewer_Staging.mobileprovision", "target_filter:^Brewer$",
                          "build_configuration:Staging"])]
    )

    @StepOption("xcodeproj", "The .xcodeproj (or the folder holding it); default: the one in the Lanefile's folder", env: "LANES_XCODEPROJ",
                fastlaneEnv: ["FL_PROJECT_PROVISIONING_PROJECT_PATH"])
    var xcodeproj: String?
    @StepOption("profile", "Path to the .mobileprovision file (default: the profile this lane installed last)", env: "LANES_PROVISIONING_PROFILE",
                fastlaneEnv: ["FL_PROJECT_PROVISIONING_PROFILE_FILE"])
    var profile: String?
    @StepOption("targets", "Target names, matched exactly (or give target_filter); all targets when absent", default: [], aliases: ["target"])
    var targets: [String]
    @StepOption("target_filter", "fastlane's regular expression searched in target names, as written (anchor with ^...$)",
                env: "LANES_TARGET_FILTER", fastlaneEnv: ["FL_PROJECT_PROVISIONING_PROFILE_TARGET_FILTER", "FL_PROJECT_PROVISIONING_PROFILE_FILTER"],
                aliases: ["build_configuration_filter"])
    var targetFilter: String?
    @StepOption("build_configuration", "Build configuration name, matched exactly; all configurations when absent",
                env: "LANES_BUILD_CONFIGURATION", fastlaneEnv: ["FL_PROJECT_PROVISIONING_PROFILE_BUILD_CONFIGURATION"], aliases: ["configuration"])
    var buildConfiguration: String?
    @StepOption("build_configuration_is_regex", "Treat build_configuration as a regular expression (as fastlane does)", default: false)
    var configurationIsRegex: Bool
    @StepOption("code_sign_identity", "CODE_SIGN_IDENTITY to write (the imported certificate's name); else the one the profile implies",
                env: "LANES_CODE_SIGN_IDENTITY", fastlaneEnv: ["FL_PROJECT_PROVISIONING_CODE_SIGN_IDENTITY"], aliases: ["code_signing_identity"])
    var codeSignIdentity: String?

    public init() {}

    public var banner: String { "Provisioning \(xcodeproj ?? "the project") with \(profile.map { ($0 as NSString).lastPathComponent } ?? "the lane's profile")" }

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        let step = Self.definition.id
        guard let profilePath = profile.map(context.resolve) ?? context.values[InstalledSigningProfile.self]?.installedPath else {
            throw LanesError(.usage, "\(step): no profile given and none installed earlier in this lane",
                             hint: "pass profile:, or call install_provisioning_profile, get_provisioning_profile or sync_code_signing first")
        }
        let facts = try ProvisioningFacts.read(profileAt: profilePath)
        let identity = codeSignIdentity ?? context.values[ImportedSigningIdentity.self]
        let settings = SigningSettings(profile: facts, identity: identity)
        context.log.line("profile '\(facts.name)' (\(facts.uuid)), team \(facts.teamIdentifier), \(facts.kind.rawValue); "
                         + "identity '\(settings.identity ?? "")'\(identitySource(given: codeSignIdentity, imported: identity))")
        if let expiresAt = facts.expiresAt, expiresAt < Date().timeIntervalSince1970 {
            context.log.line("warning: profile '\(facts.name)' expired on \(Date(timeIntervalSince1970: expiresAt)); Xcode will refuse to sign with it")
        }
        let file = XcodeProjectFile(try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: step), in: context)
        let project = try file.load()
        let (selection, configurations) = try selectConfigurations(
            in: project, targets: try .given(names: targets, pattern: targetFilter, step: step),
            configurations: .given(names: buildConfiguration.map { [$0] } ?? [], isRegex: configurationIsRegex), context: context)
        for configuration in configurations {
            // A bundle identifier built from other settings cannot be checked here; a literal one can.
            guard case .string(let bundleIdentifier)? = configuration.settings["PRODUCT_BUNDLE_IDENTIFIER"], !bundleIdentifier.contains("$"),
                  !facts.covers(bundleIdentifier: bundleIdentifier) else { continue }
            context.log.line("warning: \(configuration.scopeName) [\(configuration.name)] builds \(bundleIdentifier), which profile '\(facts.name)' "
                             + "(\(facts.applicationIdentifier ?? "")) does not cover; code signing will fail")
        }
        var session = ProjectEditSession(project: project)
        try session.applySigning(settings, to: configurations)
        try file.save(try session.finishedBytes(), original: project)
        context.logChanges(session.changes, file: file.path)
        return XcodeEditResult(projectFile: file.path, matchedTargets: selection.matched.map(\.name), changes: session.changes)
    }

    private func identitySource(given: String?, imported: String?) -> String {
        if given != nil { return "" }
        return imported == nil ? " (implied by the profile)" : " (the certificate this lane imported)"
    }
}
