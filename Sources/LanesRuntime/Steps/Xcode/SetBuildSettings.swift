import LanesXcode

/// `KEY=VALUE` pairs as one option: `OTHER_SWIFT_FLAGS=-D STAGING;SWIFT_VERSION=6.0` (separated by `;`).
public struct BuildSettingAssignments: OptionValue, Hashable, ExpressibleByDictionaryLiteral, CustomStringConvertible {
    public let pairs: [(key: String, value: String)]

    public init(_ pairs: [(key: String, value: String)]) { self.pairs = pairs }

    /// `["SWIFT_VERSION": "6.0"]` in a Lanefile; the pairs keep the literal's order.
    public init(dictionaryLiteral elements: (String, String)...) { self.pairs = elements.map { (key: $0.0, value: $0.1) } }

    public var description: String { pairs.map { "\($0.key)=\($0.value)" }.joined(separator: ";") }

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

    public static let definition = StepDefinition(
        id: "set_build_settings",
        summary: "Set build settings of Xcode targets (or the project) for a configuration",
        category: .xcode,
        examples: [StepExample(
            swift: #"try await setBuildSettings(xcodeproj: "Brewer.xcodeproj", targets: ["Brewer"], buildConfiguration: "Staging", settings: ["SWIFT_VERSION": "6.0"])"#,
            commandLine: ["xcodeproj:Brewer.xcodeproj", "targets:Brewer", "build_configuration:Staging", "settings:SWIFT_VERSION=6.0"])]
    )

    @StepOption("xcodeproj", "The .xcodeproj (or the folder holding it); default: the one in the Lanefile's folder", env: "LANES_XCODEPROJ")
    var xcodeproj: String?
    @StepOption("targets", "Target names, matched exactly; the project-level settings when absent", default: [], aliases: ["target"])
    var targets: [String]
    @StepOption("build_configuration", "Build configuration name, matched exactly; all when absent", env: "LANES_BUILD_CONFIGURATION",
                aliases: ["configuration"])
    var buildConfiguration: String?
    @StepOption("settings", "KEY=VALUE pairs separated by ';'")
    var settings: BuildSettingAssignments

    public init() {}

    private var values: [(key: String, value: BuildSettingValue)] { settings.pairs.map { ($0.key, .string($0.value)) } }

    public var banner: String { "Setting \(settings.pairs.map(\.key).joined(separator: ", ")) in \(xcodeproj ?? "the project")" }

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        let file = XcodeProjectFile(try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: Self.definition.id), in: context)
        let project = try file.load()
        let configurations: [BuildConfiguration]
        var matched: [String] = []
        if !targets.isEmpty {
            let (selection, picked) = try selectConfigurations(in: project, targets: .named(targets),
                                                               configurations: buildConfiguration.map(ConfigurationFilter.named) ?? .all, context: context)
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
            for (key, value) in values { try session.setBuildSetting(key, to: value, in: configuration) }
        }
        try file.save(try session.finishedBytes(), original: project)
        context.logChanges(session.changes, file: file.path)
        return XcodeEditResult(projectFile: file.path, matchedTargets: matched, changes: session.changes)
    }
}
