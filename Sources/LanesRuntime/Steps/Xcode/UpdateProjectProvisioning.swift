import LanesXcode
internal import Foundation

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

    @StepOption("xcodeproj", "Path to the .xcodeproj folder", env: "LANES_XCODEPROJ")
    var xcodeproj: String
    @StepOption("profile", "Path to the .mobileprovision file", env: "LANES_PROVISIONING_PROFILE")
    var profile: String
    @StepOption("target_filter", "Regular expression searched in target names, as written (anchor with ^...$); all targets when absent",
            env: "LANES_TARGET_FILTER", aliases: ["target"])
    var targetFilter: String?
    @StepOption("build_configuration", "Build configuration name, matched exactly; all configurations when absent",
            env: "LANES_BUILD_CONFIGURATION", aliases: ["configuration"])
    var buildConfiguration: String?
    @StepOption("build_configuration_is_regex", "Treat build_configuration as a regular expression", default: false)
    var configurationIsRegex: Bool
    @StepOption("code_sign_identity", "CODE_SIGN_IDENTITY to write (the imported certificate's name); else the one the profile implies",
            env: "LANES_CODE_SIGN_IDENTITY")
    var codeSignIdentity: String?

    public init() {}

    public var banner: String { "Provisioning \(xcodeproj) with \((profile as NSString).lastPathComponent)" }

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        let facts = try ProvisioningFacts.read(profileAt: context.resolve(profile))
        let identity = codeSignIdentity ?? context.values[ImportedSigningIdentity.self]
        let settings = SigningSettings(profile: facts, identity: identity)
        context.log.line("profile '\(facts.name)' (\(facts.uuid)), team \(facts.teamIdentifier), \(facts.kind.rawValue); "
                         + "identity '\(settings.identity ?? "")'\(identitySource(given: codeSignIdentity, imported: identity))")
        if let expiresAt = facts.expiresAt, expiresAt < Date().timeIntervalSince1970 {
            context.log.line("warning: profile '\(facts.name)' expired on \(Date(timeIntervalSince1970: expiresAt)); Xcode will refuse to sign with it")
        }
        let file = XcodeProjectFile(xcodeproj, in: context)
        let project = try file.load()
        let (selection, configurations) = try selectConfigurations(
            in: project, targets: targetFilter, configuration: buildConfiguration, configurationIsRegex: configurationIsRegex, context: context)
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
