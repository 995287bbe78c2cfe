/// Code-signing settings to write into build configurations. Keys left nil are not touched.
public struct SigningSettings: Sendable, Hashable {
    public enum Style: String, Sendable, Hashable, CaseIterable {
        case manual = "Manual", automatic = "Automatic"
    }

    public var style: Style
    public var team: String?
    public var identity: String?
    public var profileName: String?
    public var profileUUID: String?
    public var bundleIdentifier: String?
    /// `CODE_SIGN_ENTITLEMENTS` (fastlane's `entitlements_file_path`).
    public var entitlements: String?
    /// fastlane's `sdk`: team, identity and profile name are written as `KEY[sdk=SDK]` only.
    public var sdk: String?

    public init(style: Style, team: String? = nil, identity: String? = nil, profileName: String? = nil,
                profileUUID: String? = nil, bundleIdentifier: String? = nil, entitlements: String? = nil, sdk: String? = nil) {
        self.entitlements = entitlements
        self.sdk = sdk
        self.style = style
        self.team = team
        self.identity = identity
        self.profileName = profileName
        self.profileUUID = profileUUID
        self.bundleIdentifier = bundleIdentifier
    }

    /// Manual signing with a profile: its name, UUID and team, and the identity given (the imported
    /// certificate's name) or else the one the profile implies.
    public init(profile: ProvisioningFacts, identity: String? = nil) {
        self.init(style: .manual, team: profile.teamIdentifier, identity: identity ?? profile.impliedIdentity,
                  profileName: profile.name, profileUUID: profile.uuid)
    }

    /// The build settings to write, in a stable order.
    var assignments: [(key: String, value: String)] {
        let variant = sdk.map { "[sdk=\($0)]" } ?? ""
        var result: [(String, String)] = [("CODE_SIGN_STYLE", style.rawValue)]
        if let team { result.append(("DEVELOPMENT_TEAM" + variant, team)) }
        if let identity { result.append(("CODE_SIGN_IDENTITY" + variant, identity)) }
        if let profileName { result.append(("PROVISIONING_PROFILE_SPECIFIER" + variant, profileName)) }
        if let entitlements { result.append(("CODE_SIGN_ENTITLEMENTS", entitlements)) }
        if let profileUUID { result.append(("PROVISIONING_PROFILE", profileUUID)) }
        if let bundleIdentifier { result.append(("PRODUCT_BUNDLE_IDENTIFIER", bundleIdentifier)) }
        return result
    }
}

extension ProjectEditSession {
    /// Writes the signing settings into each configuration, every `[sdk=...]` variant of those keys
    /// included so none can override them, and the signing style into each target's TargetAttributes
    /// (with the team, where TargetAttributes already names one). Switching to automatic signing
    /// empties any profile a configuration pins, which Xcode would otherwise reject as conflicting.
    public mutating func applySigning(_ settings: SigningSettings, to configurations: [BuildConfiguration]) throws(XcodeProjectError) {
        var targets: [XcodeTarget] = []
        for configuration in configurations {
            for (key, value) in settings.assignments {
                // A key for one SDK (fastlane's `sdk`) is that variant alone.
                try setBuildSetting(key, to: .string(value), in: configuration, conditionalVariants: !key.contains("["))
            }
            if settings.style == .automatic, settings.profileName == nil, settings.profileUUID == nil {
                try clearExistingProfiles(in: configuration)
            }
            if let target = configuration.target, !targets.contains(target) { targets.append(target) }
        }
        for target in targets {
            try setTargetAttribute("ProvisioningStyle", to: settings.style.rawValue, for: target)
            if let team = settings.team {
                try setTargetAttribute("DevelopmentTeam", to: team, for: target, onlyIfPresent: true)
            }
        }
    }

    private mutating func clearExistingProfiles(in configuration: BuildConfiguration) throws(XcodeProjectError) {
        for key in configuration.buildSettings?.keys ?? [] where key.hasPrefix("PROVISIONING_PROFILE") {
            try setBuildSetting(key, to: .string(""), in: configuration)
        }
    }
}
