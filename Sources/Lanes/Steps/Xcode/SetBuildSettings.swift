import LanesXcode

/// `KEY=VALUE` pairs as one option: `OTHER_SWIFT_FLAGS=-D STAGING;SWIFT_VERSION=6.0` (separated by `;`).
public struct BuildSettingAssignments: OptionValue, Hashable {
    public let pairs: [(key: String, value: String)]

    public init(_ pairs: [(key: String, value: String)]) { self.pairs = pairs }

    public static var typeName: String { "KEY=VALUE;..." }

    public init?(optionText: String) {
        var pairs: [(String, String)] = []
        for part in optionText.split(separator: ";", omittingEmptySubsequences: true) {
            guard let equals = part.firstIndex(of: "="), equals != part.startIndex else { return nil }
            pairs.append((String(part[..<equals]), String(part[part.index(after: equals)...])))
        }
        guard !pairs.isEmpty else { return nil }
        self.pairs = pairs
    }

    public static func == (lhs: Self, rhs: Self) -> Bool {
        lhs.pairs.elementsEqual(rhs.pairs) { $0.key == $1.key && $0.value == $1.value }
    }

    public func hash(into hasher: inout Hasher) {
        for pair in pairs { hasher.combine(pair.key); hasher.combine(pair.value) }
    }
}

/// Sets build settings in the selected targets' configurations, or the project's when no target
/// pattern is given. Only the values change; every other byte of project.pbxproj stays.
public struct SetBuildSettings: Step {
    public typealias Output = XcodeEditResult

    public static let xcodeproj = StepOption<String>("xcodeproj", "Path to the .xcodeproj folder", env: "LANES_XCODEPROJ")
    public static let target = StepOption<String>.optional(
        "target", "Regular expression searched in target names, as written; project-level settings when absent")
    public static let buildConfiguration = StepOption<String>.optional(
        "build_configuration", "Build configuration name, matched exactly; all when absent", env: "LANES_BUILD_CONFIGURATION")
    public static let settings = StepOption<BuildSettingAssignments>("settings", "KEY=VALUE pairs separated by ';'")

    public static let info = StepInfo(
        id: "set_build_settings",
        summary: "Set build settings of Xcode targets (or the project) for a configuration",
        options: [xcodeproj.info, target.info, buildConfiguration.info, settings.info],
        examples: [StepExample(
            swift: #"try await setBuildSettings(xcodeproj: "Brewer.xcodeproj", target: "^Brewer$", buildConfiguration: "Staging", ["SWIFT_VERSION": "6.0"])"#,
            commandLine: ["xcodeproj:Brewer.xcodeproj", "target:^Brewer$", "build_configuration:Staging", "settings:SWIFT_VERSION=6.0"])]
    )

    public let xcodeproj: String
    public let target: String?
    public let buildConfiguration: String?
    public let settings: [(key: String, value: BuildSettingValue)]

    public init(xcodeproj: String, target: String?, buildConfiguration: String?, settings: [(key: String, value: BuildSettingValue)]) {
        self.xcodeproj = xcodeproj
        self.target = target
        self.buildConfiguration = buildConfiguration
        self.settings = settings
    }

    public init(options: OptionValues) throws {
        let assignments = try options[Self.settings]
        self.init(xcodeproj: try options[Self.xcodeproj], target: try options.optional(Self.target),
                  buildConfiguration: try options.optional(Self.buildConfiguration),
                  settings: assignments.pairs.map { ($0.key, .string($0.value)) })
    }

    public var banner: String { "Setting \(settings.map(\.key).joined(separator: ", ")) in \(xcodeproj)" }

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        let file = XcodeProjectFile(xcodeproj, in: context)
        let project = try file.load()
        let configurations: [BuildConfiguration]
        var matched: [String] = []
        if let target {
            let (selection, picked) = try selectConfigurations(in: project, targets: target, configuration: buildConfiguration,
                                                               configurationIsRegex: false, context: context)
            configurations = picked
            matched = selection.matched.map(\.name)
        } else {
            do {
                configurations = try project.projectConfigurations(buildConfiguration.map(ConfigurationFilter.named) ?? .all)
            } catch {
                throw LanesError(.configuration, "\(file.path): \(error)")
            }
        }
        var session = ProjectEditSession(project: project)
        for configuration in configurations {
            for (key, value) in settings { try session.setBuildSetting(key, to: value, in: configuration) }
        }
        try file.save(try session.finishedBytes(), original: project)
        context.logChanges(session.changes, file: file.path)
        return XcodeEditResult(projectFile: file.path, matchedTargets: matched, changes: session.changes)
    }
}

/// Sets build settings; see `SetBuildSettings`. With `target` nil, the project-level settings change.
@discardableResult
public func setBuildSettings(xcodeproj: String, target: String? = nil, buildConfiguration: String? = nil,
                             _ settings: [String: String]) async throws -> XcodeEditResult {
    let pairs = settings.sorted { $0.key < $1.key }.map { (key: $0.key, value: BuildSettingValue.string($0.value)) }
    return try await runStep(SetBuildSettings(xcodeproj: xcodeproj, target: target, buildConfiguration: buildConfiguration, settings: pairs))
}
