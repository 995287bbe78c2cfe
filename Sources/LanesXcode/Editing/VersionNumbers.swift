/// The two version numbers a project carries, each as a build setting and an Info.plist key.
public enum VersionNumber: String, Sendable, Hashable, CaseIterable {
    /// The build number: `CURRENT_PROJECT_VERSION` / `CFBundleVersion`.
    case build
    /// The user-visible version: `MARKETING_VERSION` / `CFBundleShortVersionString`.
    case marketing

    public var buildSettingKey: String {
        switch self {
        case .build: "CURRENT_PROJECT_VERSION"
        case .marketing: "MARKETING_VERSION"
        }
    }

    public var infoPlistKey: String {
        switch self {
        case .build: "CFBundleVersion"
        case .marketing: "CFBundleShortVersionString"
        }
    }

    /// `"41"` -> `"42"`, `"1.2.9"` -> `"1.2.10"`: the last numeric component plus one. Nil when the
    /// last component is not a number.
    public static func incremented(_ version: String) -> String? {
        var components = version.split(separator: ".", omittingEmptySubsequences: false).map(String.init)
        guard let last = components.last, let number = Int(last), number >= 0 else { return nil }
        components[components.count - 1] = String(number + 1)
        return components.joined(separator: ".")
    }

    /// Orders versions by numeric components ("1.10" after "1.9").
    public static func isOlder(_ lhs: String, than rhs: String) -> Bool {
        let left = lhs.split(separator: ".").map { Int($0) ?? 0 }
        let right = rhs.split(separator: ".").map { Int($0) ?? 0 }
        for index in 0..<max(left.count, right.count) {
            let a = index < left.count ? left[index] : 0
            let b = index < right.count ? right[index] : 0
            if a != b { return a < b }
        }
        return false
    }
}

extension XcodeProject {
    /// `INFOPLIST_FILE` of each configuration (target level, else project level for the same name),
    /// relative to the project root with a leading `$(SRCROOT)/` or `$(PROJECT_DIR)/` removed.
    public func infoPlistPath(of configuration: BuildConfiguration) throws(XcodeProjectError) -> String? {
        var raw = configuration.settings["INFOPLIST_FILE"]
        if raw == nil, configuration.target != nil {
            raw = try projectConfigurations().first { $0.name == configuration.name }?.settings["INFOPLIST_FILE"]
        }
        guard case .string(var path)? = raw, !path.isEmpty else { return nil }
        for prefix in ["$(SRCROOT)/", "${SRCROOT}/", "$(PROJECT_DIR)/", "${PROJECT_DIR}/", "$(SOURCE_ROOT)/"] where path.hasPrefix(prefix) {
            path.removeFirst(prefix.count)
        }
        return path
    }

    /// Where a version number is kept for these configurations: each configuration that sets the key
    /// itself; for a target whose configurations do not, the project-level configurations that do;
    /// when neither does, the target's configurations (the key gets added there).
    public func versionLocations(_ version: VersionNumber, in configurations: [BuildConfiguration]) throws(XcodeProjectError) -> [BuildConfiguration] {
        let key = version.buildSettingKey
        let projectLevel = try projectConfigurations()
        var result: [BuildConfiguration] = []
        for configuration in configurations {
            if configuration.settings[key] != nil || configuration.target == nil {
                result.append(configuration)
            } else if let shared = projectLevel.first(where: { $0.name == configuration.name && $0.settings[key] != nil }) {
                if !result.contains(where: { $0.id == shared.id }) { result.append(shared) }
            } else {
                result.append(configuration)
            }
        }
        return result
    }
}
