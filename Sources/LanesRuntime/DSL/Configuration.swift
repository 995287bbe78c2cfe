/// What differs between the environments an app ships to. A Lanefile defines one conformance per
/// environment (`Staging`, `Production`) and passes it to shared lane functions.
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
