import LanesXcode

/// Switches targets between automatic and manual signing and sets team, identity, profile and bundle
/// identifier, each with its `[sdk=...]` variants, plus `ProvisioningStyle` in TargetAttributes.
public struct UpdateCodeSigningSettings: Step {
    public typealias Output = XcodeEditResult

    public static let definition = StepDefinition(
        id: "update_code_signing_settings",
        summary: "Set signing style, team, identity and profile of Xcode targets, SDK variants included",
        category: .xcode,
        examples: [StepExample(
            swift: #"try await updateCodeSigningSettings(xcodeproj: "Brewer.xcodeproj", useAutomaticSigning: false, targets: ["Brewer"], buildConfigurations: ["Release"], teamID: "ABCDE12345", codeSignIdentity: "Apple Distribution")"#,
            commandLine: ["path:Brewer.xcodeproj", "use_automatic_signing:false", "targets:Brewer", "build_configurations:Release",
                          "team_id:ABCDE12345", "code_sign_identity:Apple Distribution"])]
    )

    @StepOption("xcodeproj", "The .xcodeproj (or the folder holding it); default: the one in the Lanefile's folder", env: "LANES_XCODEPROJ",
                fastlaneEnv: ["FL_PROJECT_SIGNING_PROJECT_PATH"], aliases: ["path"])
    var xcodeproj: String?
    @StepOption("use_automatic_signing", "Automatic (true) or manual (false) signing", fastlaneEnv: ["FL_PROJECT_USE_AUTOMATIC_SIGNING"], default: false)
    var useAutomaticSigning: Bool
    @StepOption("targets", "Target names, matched exactly; all targets when absent", env: "LANES_TARGETS", fastlaneEnv: ["FL_PROJECT_SIGNING_TARGETS"],
                default: [], aliases: ["target"])
    var targets: [String]
    @StepOption("build_configurations", "Build configuration names, matched exactly; all when absent", env: "LANES_BUILD_CONFIGURATION",
                fastlaneEnv: ["FL_PROJECT_SIGNING_BUILD_CONFIGURATIONS"], default: [], aliases: ["build_configuration", "configuration"])
    var buildConfigurations: [String]
    @StepOption("team_id", "DEVELOPMENT_TEAM to write (default: the lane's Configuration's teamID)", env: "LANES_TEAM_ID", fastlaneEnv: ["FASTLANE_TEAM_ID"])
    var teamID: String?
    @StepOption("code_sign_identity", "CODE_SIGN_IDENTITY to write", env: "LANES_CODE_SIGN_IDENTITY", fastlaneEnv: ["FL_CODE_SIGN_IDENTITY"])
    var codeSignIdentity: String?
    @StepOption("profile_name", "PROVISIONING_PROFILE_SPECIFIER to write", fastlaneEnv: ["FL_PROVISIONING_PROFILE_SPECIFIER"])
    var profileName: String?
    @StepOption("profile_uuid", "PROVISIONING_PROFILE to write", fastlaneEnv: ["FL_PROVISIONING_PROFILE"])
    var profileUUID: String?
    @StepOption("bundle_identifier", "PRODUCT_BUNDLE_IDENTIFIER to write", env: "APP_IDENTIFIER", fastlaneEnv: ["FL_APP_IDENTIFIER"])
    var bundleIdentifier: String?
    @StepOption("entitlements_file_path", "CODE_SIGN_ENTITLEMENTS to write", fastlaneEnv: ["FL_CODE_SIGN_ENTITLEMENTS_FILE_PATH"])
    var entitlementsFilePath: String?
    @StepOption("sdk", "Write team, identity and profile name for this SDK only (KEY[sdk=SDK], such as iphoneos*)", fastlaneEnv: ["FASTLANE_BUILD_SDK"])
    var sdk: String?

    public init() {}

    var settings: SigningSettings {
        SigningSettings(style: useAutomaticSigning ? .automatic : .manual, team: teamID, identity: codeSignIdentity,
                        profileName: profileName, profileUUID: profileUUID, bundleIdentifier: bundleIdentifier,
                        entitlements: entitlementsFilePath, sdk: sdk)
    }

    public var banner: String { "\(settings.style.rawValue) signing in \(xcodeproj ?? "the project")" }

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        let file = XcodeProjectFile(try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: Self.definition.id), in: context)
        let project = try file.load()
        let (selection, configurations) = try selectConfigurations(
            in: project, targets: targets.isEmpty ? .all : .named(targets), configurations: .given(names: buildConfigurations), context: context)
        var session = ProjectEditSession(project: project)
        try session.applySigning(settings, to: configurations)
        try file.save(try session.finishedBytes(), original: project)
        context.logChanges(session.changes, file: file.path)
        return XcodeEditResult(projectFile: file.path, matchedTargets: selection.matched.map(\.name), changes: session.changes)
    }
}
