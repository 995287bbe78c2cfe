/// What differs between the environments an app ships to. A Lanefile defines one conformance per
/// environment (`Staging`, `Production`) and passes it to shared lane functions.
///
/// A lane given a configuration (`Lane(..., configuration: Release())`, or `withConfiguration`)
/// supplies what fastlane's Appfile supplies to its actions: steps left without `app_identifier`
/// or `team_id` (and with neither variable set) take `appIdentifier` and `teamID` from it, and
/// `build_app` its `buildConfiguration` and `exportMethod`.
public protocol Configuration: Sendable {
    /// File name (without `.p12`) of the signing certificate in the code-signing folder.
    var certificate: String { get }
    /// File name (without `.mobileprovision`) of the provisioning profile.
    var provisioningProfile: String { get }
    /// The Xcode build configuration to build.
    var buildConfiguration: String { get }
    /// The bundle identifier the profile must cover.
    var appIdentifier: String { get }
    var exportMethod: ExportMethod { get }
    /// The Developer Portal team (the Appfile's `team_id`); nil by default.
    var teamID: String? { get }
}

extension Configuration {
    public var teamID: String? { nil }
}

/// A value of the lane's `Configuration` an option falls back to, after its argument and its
/// variables (fastlane's `CredentialsManager::AppfileConfig.try_fetch_value`).
public enum AppfileValue: String, Sendable {
    case appIdentifier = "app_identifier"
    case teamID = "team_id"

    func value(in configuration: any Configuration) -> String? {
        switch self {
        case .appIdentifier: configuration.appIdentifier
        case .teamID: configuration.teamID
        }
    }
}

/// Runs `body` with `configuration` as the lane's: steps inside take their app identifier and team
/// from it (as fastlane's actions take them from the Appfile, `for_lane` blocks included).
///
///     try await withConfiguration(Release()) {
///         try await buildApp()          // Release's build configuration, export method and app identifier
///         try await uploadToTestflight()
///     }
public func withConfiguration<T: Sendable>(_ configuration: any Configuration, _ body: () async throws -> T) async rethrows -> T {
    try await LaneRun.$configuration.withValue(configuration) { try await body() }
}

/// How an archive is exported (`method` in ExportOptions.plist).
public enum ExportMethod: String, Sendable, CaseIterable, OptionValue, CustomStringConvertible {
    case appStore = "app-store"
    case adHoc = "ad-hoc"
    case enterprise
    case development
    case developerID = "developer-id"
    case macApplication = "mac-application"

    /// The names Xcode 15.3 and later write; the classic names are still accepted by xcodebuild.
    public var modernName: String {
        switch self {
        case .appStore: "app-store-connect"
        case .adHoc: "release-testing"
        case .development: "debugging"
        case .enterprise, .developerID, .macApplication: rawValue
        }
    }

    /// The classic spelling, as ExportOptions.plist's `method` takes it: `"\(ExportMethod.adHoc)"` is `ad-hoc`.
    public var description: String { rawValue }

    /// Accepts classic and modern spellings.
    public init?(optionText: String) {
        guard let method = Self.allCases.first(where: { $0.rawValue == optionText || $0.modernName == optionText }) else {
            return nil
        }
        self = method
    }
}
