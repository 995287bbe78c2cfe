import LanesUpload
import LanesHTTP

/// Build numbers as App Store Connect orders them: dot-separated integers compared field by field,
/// so "1.2.10" comes after "1.2.9" and "100" after "99"; a missing field counts as 0.
public enum BuildNumber {
    public static func isOrderedBefore(_ left: String, _ right: String) -> Bool {
        let a = fields(left), b = fields(right)
        for index in 0..<max(a.count, b.count) {
            let x = index < a.count ? a[index] : .number(0)
            let y = index < b.count ? b[index] : .number(0)
            if x != y { return x < y }
        }
        return false
    }

    /// The highest of `numbers` in Apple's order.
    public static func highest<S: Sequence>(_ numbers: S) -> String? where S.Element == String {
        numbers.max(by: isOrderedBefore)
    }

    private enum Field: Comparable {
        case number(Int)
        case text(String)
    }

    private static func fields(_ text: String) -> [Field] {
        text.split(separator: ".", omittingEmptySubsequences: false).map { part in
            Int(part).map(Field.number) ?? .text(String(part))
        }
    }
}

/// The platforms App Store Connect's filters name.
public enum AppStorePlatform: String, Sendable, CaseIterable {
    case ios = "IOS", macOS = "MAC_OS", tvOS = "TV_OS", visionOS = "VISION_OS"

    /// fastlane's spellings (`ios`, `osx`, `appletvos`, `xros`) and Apple's.
    public init?(fastlane text: String) {
        switch text.lowercased() {
        case "ios": self = .ios
        case "osx", "macos", "mac_os": self = .macOS
        case "appletvos", "tvos", "tv_os": self = .tvOS
        case "xros", "visionos", "vision_os": self = .visionOS
        default: return nil
        }
    }
}

extension AppStoreConnectClient {
    /// The app with this bundle id (App Store Connect's filter matches prefixes too, so the answer is checked).
    public func app(bundleID: String) async throws -> App {
        let apps = try await getAll("/v1/apps", query: [("filter[bundleId]", bundleID), ("fields[apps]", "name,bundleId,sku,primaryLocale"),
                                                         ("limit", "200")], as: App.self)
        guard let app = apps.first(where: { $0.attributes?.bundleId == bundleID }) else {
            throw UploadError(.configuration, "App Store Connect has no app with bundle id \(bundleID) that key \(key.keyID) can see",
                              hint: "check app_identifier, and that the key's team owns the app")
        }
        return app
    }

    /// Every build of an app, optionally of one version (the pre-release version's `version`) and platform, all pages read.
    public func builds(appID: String, version: String? = nil, platform: AppStorePlatform? = nil,
                       buildNumber: String? = nil) async throws -> [Build] {
        var query: [(String, String)] = [("filter[app]", appID)]
        if let version { query.append(("filter[preReleaseVersion.version]", version)) }
        if let platform { query.append(("filter[preReleaseVersion.platform]", platform.rawValue)) }
        if let buildNumber { query.append(("filter[version]", buildNumber)) }
        query += [("sort", "-uploadedDate"), ("fields[builds]", "version,uploadedDate,expired,processingState,usesNonExemptEncryption"),
                  ("limit", "200")]
        return try await getAll("/v1/builds", query: query, as: Build.self)
    }

    /// The highest TestFlight build number of an app (of one version when given), or nil when it has none.
    public func latestTestFlightBuildNumber(appID: String, version: String?, platform: AppStorePlatform?) async throws -> String? {
        BuildNumber.highest(try await builds(appID: appID, version: version, platform: platform).compactMap { $0.attributes?.version })
    }

    /// The build number attached to the app's live App Store version (`live`), or to its newest version
    /// in edit (of `version` when given); nil when the version has no build.
    public func appStoreBuildNumber(appID: String, live: Bool, version: String?, platform: AppStorePlatform?) async throws
        -> (version: String, build: String?)? {
        var query: [(String, String)] = []
        if let platform { query.append(("filter[platform]", platform.rawValue)) }
        if let version { query.append(("filter[versionString]", version)) }
        if live { query.append(("filter[appStoreState]", "READY_FOR_SALE")) }
        query += [("fields[appStoreVersions]", "platform,versionString,appStoreState,appVersionState,build"), ("limit", "200")]
        let versions = try await getAll("/v1/apps/\(appID)/appStoreVersions", query: query, as: Resource<AppStoreVersionAttributes>.self)
        let chosen = versions.compactMap { item in item.attributes?.versionString.map { (item.id, $0) } }
            .max { BuildNumber.isOrderedBefore($0.1, $1.1) }
        guard let (versionID, versionString) = chosen else { return nil }
        let build = try await get("/v1/appStoreVersions/\(versionID)/build", query: [("fields[builds]", "version")], as: OptionalDocument<Build>.self)
        return (versionString, build.data?.attributes?.version)
    }
}

/// A to-one relationship's document, whose `data` is null when nothing is linked.
public struct OptionalDocument<Resource: Decodable>: Decodable {
    public let data: Resource?
}
