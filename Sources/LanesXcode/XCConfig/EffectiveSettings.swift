/// A build setting as Xcode would resolve it for one configuration, and which layer set it last.
public struct EffectiveSetting: Sendable, Hashable, Codable {
    public let key: String
    public let value: String
    /// The `.xcconfig` file and line, or "project.pbxproj (project)" / "project.pbxproj (target NAME)".
    public let source: String
}

extension XcodeProject {
    /// Resolves a target configuration's settings through Xcode's layers, lowest first: the project's
    /// xcconfig, the project's `buildSettings`, the target's xcconfig, the target's `buildSettings`.
    /// `$(inherited)` takes the value from the layers below. Keys with `[conditions]` stay separate.
    /// `projectRoot` is the folder holding the `.xcodeproj`; xcconfig paths resolve against it.
    public func effectiveSettings(of configuration: BuildConfiguration, projectRoot: String,
                                  read: @escaping XCConfigReader.ReadFile) throws -> [EffectiveSetting] {
        var layers: [[EffectiveSetting]] = []
        let reader = XCConfigReader(read: read)
        func xcconfigLayer(_ configuration: BuildConfiguration) throws -> [EffectiveSetting] {
            guard let relative = baseConfigurationPath(of: configuration) else { return [] }
            let path = relative.hasPrefix("/") ? relative : (projectRoot.isEmpty ? relative : projectRoot + "/" + relative)
            return try reader.settings(at: path).map {
                EffectiveSetting(key: $0.key, value: $0.value, source: "\($0.file):\($0.line)")
            }
        }
        func pbxprojLayer(_ configuration: BuildConfiguration) -> [EffectiveSetting] {
            let source = configuration.target.map { "project.pbxproj (target \($0.name))" } ?? "project.pbxproj (project)"
            return (configuration.buildSettings?.entries ?? []).map {
                EffectiveSetting(key: $0.key.value, value: BuildSettingValue($0.value).flattened, source: source)
            }
        }
        if configuration.target != nil,
           let projectLevel = try projectConfigurations().first(where: { $0.name == configuration.name }) {
            layers.append(try xcconfigLayer(projectLevel))
            layers.append(pbxprojLayer(projectLevel))
        }
        layers.append(try xcconfigLayer(configuration))
        layers.append(pbxprojLayer(configuration))

        var resolved: [String: EffectiveSetting] = [:]
        for layer in layers {
            for setting in layer {
                let inherited = resolved[setting.key]?.value ?? ""
                let value = setting.value.replacing("$(inherited)", with: inherited).replacing("${inherited}", with: inherited)
                resolved[setting.key] = EffectiveSetting(key: setting.key, value: value.trimmingWhitespace(), source: setting.source)
            }
        }
        return resolved.values.sorted { $0.key < $1.key }
    }
}

extension BuildSettingValue {
    /// The value as one string, the way Xcode joins list settings.
    var flattened: String {
        switch self {
        case .string(let text): text
        case .array(let items): items.joined(separator: " ")
        }
    }
}
