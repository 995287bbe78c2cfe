/// One value a step changed: where, which key, from what to what. `configuration` is nil for a
/// `TargetAttributes` entry; `before` is nil when the key was added.
public struct XcodeSettingChange: Sendable, Hashable, Codable, CustomStringConvertible {
    /// The target's name, or "project" for project-level settings.
    public let scope: String
    public let configuration: String?
    public let key: String
    public let before: BuildSettingValue?
    public let after: BuildSettingValue

    public init(scope: String, configuration: String?, key: String, before: BuildSettingValue?, after: BuildSettingValue) {
        self.scope = scope
        self.configuration = configuration
        self.key = key
        self.before = before
        self.after = after
    }

    public var description: String {
        let place = configuration.map { "\(scope) [\($0)]" } ?? "\(scope) [TargetAttributes]"
        let from = before.map { "'\($0)'" } ?? "(unset)"
        return "\(place) \(key): \(from) -> '\(after)'"
    }
}
