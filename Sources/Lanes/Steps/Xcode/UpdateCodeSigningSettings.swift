import LanesXcode

/// Switches targets between automatic and manual signing and sets team, identity, profile and bundle
/// identifier, each with its `[sdk=...]` variants, plus `ProvisioningStyle` in TargetAttributes.
public struct UpdateCodeSigningSettings: Step {
    public typealias Output = XcodeEditResult

    public static let xcodeproj = StepOption<String>("xcodeproj", "Path to the .xcodeproj folder", env: "LANES_XCODEPROJ")
    public static let useAutomaticSigning = StepOption<Bool>("use_automatic_signing", "Automatic (true) or manual (false) signing", default: false)
    public static let targets = StepOption<String>.optional(
        "targets", "Regular expression searched in target names, as written; all targets when absent", env: "LANES_TARGET_FILTER")
    public static let buildConfiguration = StepOption<String>.optional(
        "build_configuration", "Build configuration name, matched exactly; all when absent", env: "LANES_BUILD_CONFIGURATION")
    public static let teamID = StepOption<String>.optional("team_id", "DEVELOPMENT_TEAM to write", env: "LANES_TEAM_ID")
    public static let codeSignIdentity = StepOption<String>.optional("code_sign_identity", "CODE_SIGN_IDENTITY to write")
    public static let profileName = StepOption<String>.optional("profile_name", "PROVISIONING_PROFILE_SPECIFIER to write")
    public static let profileUUID = StepOption<String>.optional("profile_uuid", "PROVISIONING_PROFILE to write")
    public static let bundleIdentifier = StepOption<String>.optional("bundle_identifier", "PRODUCT_BUNDLE_IDENTIFIER to write")

    public static let info = StepInfo(
        id: "update_code_signing_settings",
        summary: "Set signing style, team, identity and profile of Xcode targets, SDK variants included",
        options: [xcodeproj.info, useAutomaticSigning.info, targets.info, buildConfiguration.info, teamID.info,
                  codeSignIdentity.info, profileName.info, profileUUID.info, bundleIdentifier.info],
        examples: [StepExample(
            swift: #"try await updateCodeSigningSettings(xcodeproj: "Brewer.xcodeproj", useAutomaticSigning: false, targets: "^Brewer$", buildConfiguration: "Release", teamID: "ABCDE12345", codeSignIdentity: "Apple Distribution")"#,
            commandLine: ["xcodeproj:Brewer.xcodeproj", "use_automatic_signing:false", "targets:^Brewer$", "build_configuration:Release",
                          "team_id:ABCDE12345", "code_sign_identity:Apple Distribution"])]
    )

    public let xcodeproj: String
    public let targets: String?
    public let buildConfiguration: String?
    public let settings: SigningSettings

    public init(xcodeproj: String, useAutomaticSigning: Bool, targets: String? = nil, buildConfiguration: String? = nil,
                teamID: String? = nil, codeSignIdentity: String? = nil, profileName: String? = nil, profileUUID: String? = nil,
                bundleIdentifier: String? = nil) {
        self.xcodeproj = xcodeproj
        self.targets = targets
        self.buildConfiguration = buildConfiguration
        self.settings = SigningSettings(style: useAutomaticSigning ? .automatic : .manual, team: teamID, identity: codeSignIdentity,
                                        profileName: profileName, profileUUID: profileUUID, bundleIdentifier: bundleIdentifier)
    }

    public init(options: OptionValues) throws {
        self.init(xcodeproj: try options[Self.xcodeproj], useAutomaticSigning: try options[Self.useAutomaticSigning],
                  targets: try options.optional(Self.targets), buildConfiguration: try options.optional(Self.buildConfiguration),
                  teamID: try options.optional(Self.teamID), codeSignIdentity: try options.optional(Self.codeSignIdentity),
                  profileName: try options.optional(Self.profileName), profileUUID: try options.optional(Self.profileUUID),
                  bundleIdentifier: try options.optional(Self.bundleIdentifier))
    }

    public var banner: String { "\(settings.style.rawValue) signing in \(xcodeproj)" }

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        let file = XcodeProjectFile(xcodeproj, in: context)
        let project = try file.load()
        let (selection, configurations) = try selectConfigurations(
            in: project, targets: targets, configuration: buildConfiguration, configurationIsRegex: false, context: context)
        var session = ProjectEditSession(project: project)
        try session.applySigning(settings, to: configurations)
        try file.save(try session.finishedBytes(), original: project)
        context.logChanges(session.changes, file: file.path)
        return XcodeEditResult(projectFile: file.path, matchedTargets: selection.matched.map(\.name), changes: session.changes)
    }
}

/// Sets code-signing settings of Xcode targets; see `UpdateCodeSigningSettings`.
@discardableResult
public func updateCodeSigningSettings(xcodeproj: String, useAutomaticSigning: Bool, targets: String? = nil,
                                      buildConfiguration: String? = nil, teamID: String? = nil, codeSignIdentity: String? = nil,
                                      profileName: String? = nil, profileUUID: String? = nil,
                                      bundleIdentifier: String? = nil) async throws -> XcodeEditResult {
    try await runStep(UpdateCodeSigningSettings(xcodeproj: xcodeproj, useAutomaticSigning: useAutomaticSigning, targets: targets,
                                                buildConfiguration: buildConfiguration, teamID: teamID, codeSignIdentity: codeSignIdentity,
                                                profileName: profileName, profileUUID: profileUUID, bundleIdentifier: bundleIdentifier))
}
