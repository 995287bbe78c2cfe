/// The profile types fastlane match stores, by the names its `type` option takes.
public enum MatchType: String, Sendable, CaseIterable, Codable {
    case appstore, adhoc, development, enterprise
    case developerID = "developer_id"
    case macInstallerDistribution = "mac_installer_distribution"
    case developerIDInstaller = "developer_id_installer"

    /// The folder under `certs/` holding this type's certificates (App Store and Ad Hoc share
    /// the distribution certificate).
    public var certificateFolder: String {
        switch self {
        case .appstore, .adhoc: "distribution"
        case .development: "development"
        case .enterprise: "enterprise"
        case .developerID: "developer_id_application"
        case .macInstallerDistribution: "mac_installer_distribution"
        case .developerIDInstaller: "developer_id_installer"
        }
    }

    /// The first word of the profile's file name; nil for types without profiles (installers).
    public var profilePrefix: String? {
        switch self {
        case .appstore: "AppStore"
        case .adhoc: "AdHoc"
        case .development: "Development"
        case .enterprise: "InHouse"
        case .developerID: "Direct"
        case .macInstallerDistribution, .developerIDInstaller: nil
        }
    }
}

/// The platforms of fastlane match's `platform` option.
public enum MatchPlatform: String, Sendable, CaseIterable, Codable {
    case ios, tvos, macos, catalyst, visionos
}

/// Where fastlane match puts each file, relative to the storage root (after the S3 team prefix).
public enum MatchLayout {
    public static let versionFile = "match_version.txt"
    /// The extensions fastlane encrypts; everything else (README, match_version.txt) is clear.
    public static let encryptedExtensions: Set<String> = ["cer", "p12", "mobileprovision", "provisionprofile"]

    public static func certificateFolder(_ type: MatchType) -> String { "certs/\(type.certificateFolder)" }

    /// `profiles/<type>/<Prefix>_<bundle id>[_tvos|_catalyst].mobileprovision|.provisionprofile`.
    public static func profilePath(type: MatchType, appIdentifier: String, platform: MatchPlatform) -> String? {
        guard let prefix = type.profilePrefix else { return nil }
        var name = "\(prefix)_\(appIdentifier)"
        if platform == .tvos || platform == .catalyst { name += "_\(platform.rawValue)" }
        let suffix = platform == .macos || platform == .catalyst ? "provisionprofile" : "mobileprovision"
        return "profiles/\(type.rawValue)/\(name).\(suffix)"
    }

    /// The name fastlane match gives the profiles it creates: `match AppStore <bundle id>`, with
    /// the platform after it when it is not iOS.
    public static func profileName(type: MatchType, appIdentifier: String, platform: MatchPlatform) -> String? {
        guard let prefix = type.profilePrefix else { return nil }
        return platform == .ios ? "match \(prefix) \(appIdentifier)" : "match \(prefix) \(appIdentifier) \(platform.rawValue)"
    }

    /// fastlane's commit message for what match stores (`match import`, or created by `match`).
    public static func commitMessage(type: MatchType, platform: MatchPlatform) -> String {
        "[fastlane] Updated \(type.rawValue) and platform \(platform.rawValue)"
    }

    /// The file extension of a stored path.
    public static func fileExtension(_ path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: ".") else { return "" }
        return String(name[name.index(after: dot)...]).lowercased()
    }

    public static func isEncrypted(_ path: String) -> Bool { encryptedExtensions.contains(fileExtension(path)) }

    /// The folders that hold stored files: `certs` and `profiles`, and one level below them.
    public static func isStoredFolder(_ path: String) -> Bool {
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard let top = parts.first, top == "certs" || top == "profiles", parts.count <= 2 else { return false }
        return parts.dropFirst().allSatisfy(isPlainName)
    }

    /// The paths fastlane's layout names, and so the only ones lanes reads from a storage:
    /// `match_version.txt`, `certs/<kind>/<id>.cer|.p12` and
    /// `profiles/<type>/<name>.mobileprovision|.provisionprofile`. Anything else (a README, a
    /// stray folder, a file planted to be large) is never read.
    public static func isStoredFile(_ path: String) -> Bool {
        if path == versionFile { return true }
        let parts = path.split(separator: "/", omittingEmptySubsequences: false)
        guard parts.count == 3, parts.allSatisfy(isPlainName) else { return false }
        switch (parts[0], fileExtension(path)) {
        case ("certs", "cer"), ("certs", "p12"), ("profiles", "mobileprovision"), ("profiles", "provisionprofile"): return true
        default: return false
        }
    }

    private static func isPlainName(_ name: Substring) -> Bool {
        !name.isEmpty && !name.hasPrefix(".")
    }
}

/// How much of a storage lanes reads: a team's storage is a few hundred files of a few KiB, so
/// these leave ample room, and a storage made to exhaust memory (a tree naming one blob 65,536
/// times, a 2 GB file) fails with an error that says which limit it passed.
public struct MatchStorageLimits: Sendable {
    public var files: Int
    public var fileBytes: Int
    public var totalBytes: Int

    public init(files: Int = 10_000, fileBytes: Int = 4 << 20, totalBytes: Int = 128 << 20) {
        self.files = files
        self.fileBytes = fileBytes
        self.totalBytes = totalBytes
    }

    public static let standard = MatchStorageLimits()

    public func tooManyFiles(_ storage: String) -> MatchError {
        .storage("\(storage) holds more than \(files) files where the match layout keeps them; lanes reads at most \(files)")
    }

    public func fileTooLarge(_ path: String, size: Int) -> MatchError {
        .storage("\(path) is \(Self.mebibytes(size)) MiB, more than the \(fileBytes >> 20) MiB a match file may be; lanes does not read it")
    }

    public func tooMuch(_ storage: String) -> MatchError {
        .storage("\(storage) holds more than \(totalBytes >> 20) MiB where the match layout keeps its files; lanes reads at most \(totalBytes >> 20) MiB")
    }

    private static func mebibytes(_ size: Int) -> String {
        size >= 10 << 20 ? String(size >> 20) : String(Double(size * 10 >> 20) / 10)
    }
}

/// The environment names fastlane's match sets for xcodebuild and later actions:
/// `sigh_<bundle id>_<type>[_<platform>]` (the UUID) and `..._team-id`, `..._profile-name`,
/// `..._profile-path`, `..._certificate-name`; iOS leaves the platform out.
public enum MatchEnvironmentNames {
    public static func base(appIdentifier: String, type: MatchType, platform: MatchPlatform) -> String {
        var parts = ["sigh", appIdentifier, type.rawValue]
        if platform != .ios { parts.append(platform.rawValue) }
        return parts.joined(separator: "_")
    }

    public static func all(appIdentifier: String, type: MatchType, platform: MatchPlatform,
                           uuid: String, teamID: String?, profileName: String, profilePath: String,
                           certificateName: String) -> [String: String] {
        let base = base(appIdentifier: appIdentifier, type: type, platform: platform)
        var names = [base: uuid, "\(base)_profile-name": profileName, "\(base)_profile-path": profilePath,
                     "\(base)_certificate-name": certificateName]
        if let teamID { names["\(base)_team-id"] = teamID }
        return names
    }
}
