/// How an archive is exported: the `method` of ExportOptions.plist. Both the classic names and the
/// ones Xcode 15.3 introduced are accepted and written as given, since xcodebuild reads both.
public enum ArchiveExportMethod: String, Sendable, CaseIterable, Equatable {
    case appStore = "app-store"
    case appStoreConnect = "app-store-connect"
    case validation
    case adHoc = "ad-hoc"
    case releaseTesting = "release-testing"
    case package
    case enterprise
    case development
    case debugging
    case developerID = "developer-id"
    case macApplication = "mac-application"

    /// Accepts any spelling xcodebuild documents; nil for anything else.
    public init?(name: String) { self.init(rawValue: name) }

    /// The same method under its Xcode 15.3+ name (the classic name for methods that were not renamed).
    public var modernEquivalent: ArchiveExportMethod {
        switch self {
        case .appStore: .appStoreConnect
        case .adHoc: .releaseTesting
        case .development: .debugging
        default: self
        }
    }

    /// True when both names mean the same export (`ad-hoc` and `release-testing`, for example).
    public func isSameMethod(as other: ArchiveExportMethod) -> Bool {
        modernEquivalent == other.modernEquivalent
    }

    /// Whether the export goes to App Store Connect (so `manifest`, `thinning` and friends do not apply).
    public var isAppStore: Bool { modernEquivalent == .appStoreConnect || self == .validation }
}
