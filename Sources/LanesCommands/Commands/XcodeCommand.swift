import ArgumentParser
import Foundation
import Lanes
import LanesXcode
import LanesPlatform

/// `lanes xcode`: read and edit Xcode project build settings without Xcode.
struct XcodeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "xcode",
        abstract: "Show and edit Xcode project build settings, byte-exact.",
        subcommands: [XcodeSettingsCommand.self, XcodeSetCommand.self, XcodeProvisionCommand.self, XcodeLogCommand.self]
    )
}

/// The project file and root of a `PROJECT.xcodeproj` argument.
private struct ProjectArgument {
    let pbxproj: String
    let root: String

    init(_ argument: String) {
        let trimmed = argument.hasSuffix("/") ? String(argument.dropLast()) : argument
        let folder = trimmed.hasSuffix(".pbxproj") ? (trimmed as NSString).deletingLastPathComponent : trimmed
        pbxproj = trimmed.hasSuffix(".pbxproj") ? trimmed : trimmed + "/project.pbxproj"
        let parent = (folder as NSString).deletingLastPathComponent
        root = parent.isEmpty ? "." : parent
    }

    func load() throws -> XcodeProject {
        guard let data = FileManager.default.contents(atPath: pbxproj) else {
            throw LanesError(.configuration, "cannot read \(pbxproj)", hint: "pass the .xcodeproj folder")
        }
        do {
            return try XcodeProject(bytes: Array(data), path: pbxproj)
        } catch {
            throw LanesError(.configuration, "\(error)")
        }
    }
}

/// One configuration's settings as written, for `--json`.
private struct SettingsRecord: Encodable {
    let target: String?
    let configuration: String
    let settings: [String: BuildSettingValue]

    enum CodingKeys: String, CodingKey { case target, configuration, settings }

    /// `target` is null for project-level configurations, never left out.
    func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(target, forKey: .target)
        try container.encode(configuration, forKey: .configuration)
        try container.encode(settings, forKey: .settings)
    }
}

struct XcodeSettingsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "settings",
        abstract: "Print build settings per target and configuration, with the xcconfig values that apply.")

    @Argument(help: "The .xcodeproj folder (or its project.pbxproj).") var project: String
    @Option(help: "Regular expression searched in target names, as written (anchor with ^...$).") var target: String?
    @Option(help: "Build configuration name, matched exactly.") var configuration: String?
    @Flag(help: "Print an array of {target, configuration, settings} with settings exactly as written.") var json = false

    func run() throws {
        let argument = ProjectArgument(project)
        let xcodeProject = try argument.load()
        let configurations: [BuildConfiguration]
        do {
            let filter: ConfigurationFilter = configuration.map(ConfigurationFilter.named) ?? .all
            if let target {
                let selection = try xcodeProject.targets(matching: target)
                if !json { print(TerminalText.visible(matchLine(selection))) }
                configurations = try xcodeProject.configurations(of: selection.matched, filter)
            } else {
                configurations = try xcodeProject.projectConfigurations(filter)
                    + xcodeProject.targets.flatMap { try xcodeProject.configurations(of: $0).filter { try filter.accepts($0.name) } }
            }
        } catch {
            throw LanesError(.configuration, "\(error)")
        }
        if json {
            let records = configurations.map { SettingsRecord(target: $0.target?.name, configuration: $0.name, settings: $0.settings) }
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
            print(String(decoding: try encoder.encode(records), as: UTF8.self))
            return
        }
        for configuration in configurations {
            print("\(configuration.scopeName) [\(configuration.name)]")
            let written = configuration.settings
            for (key, value) in written.sorted(by: { $0.key < $1.key }) { print(TerminalText.visible("  \(key) = \(value)")) }
            let effective: [EffectiveSetting]
            do {
                effective = try xcodeProject.effectiveSettings(of: configuration, projectRoot: argument.root) { path in
                    try? String(contentsOfFile: path, encoding: .utf8)
                }
            } catch {
                print("  (xcconfig values not shown: \(error))")
                effective = []
            }
            // What the configuration's own buildSettings do not say: xcconfig and project-level values.
            for setting in effective where written[setting.key] == nil {
                print(TerminalText.visible("  \(setting.key) = \(setting.value)    (from \(setting.source))"))
            }
        }
    }
}

/// `lanes xcode set`: the `set_build_settings` step, run like `lanes run set_build_settings`; its
/// flags are the step's options (`StepFrontDoor`).
struct XcodeSetCommand: AsyncParsableCommand {
    static let door = StepFrontDoor(step: SetBuildSettings.self, fixed: ["xcodeproj", "settings"])
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "set",
            abstract: "Set build settings; only the changed values' bytes are rewritten (the set_build_settings step).",
            discussion: HelpRequest.isAsked ? discussion : "")
    }
    static let discussion = StepFrontDoor.help([door])

    @Argument(help: "The .xcodeproj folder (or its project.pbxproj).") var project: String
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("KEY=VALUE assignments and the step's options as flags (below).",
                                                           valueName: "KEY=VALUE | --OPTION VALUE"))
    var words: [String] = []

    func run() async throws {
        let (options, assignments) = try Self.door.parse(words)
        guard !assignments.isEmpty else {
            throw LanesError(.usage, "no KEY=VALUE assignment given", hint: "lanes xcode set App.xcodeproj --target App SWIFT_VERSION=6.0")
        }
        await SingleStepRun.main(SetBuildSettings.self, arguments: [
            "xcodeproj:\(project)", "settings:\(assignments.joined(separator: ";"))",
        ] + options)
    }
}

/// `lanes xcode provision`: the `update_project_provisioning` step; its flags are the step's options.
struct XcodeProvisionCommand: AsyncParsableCommand {
    static let door = StepFrontDoor(step: UpdateProjectProvisioning.self, fixed: ["xcodeproj"])
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "provision",
            abstract: "Point targets at a provisioning profile: specifier, UUID, team, manual style, identity (the update_project_provisioning step).",
            discussion: HelpRequest.isAsked ? discussion : "")
    }
    static let discussion = StepFrontDoor.help([door])

    @Argument(help: "The .xcodeproj folder (or its project.pbxproj).") var project: String
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The step's options as flags (below).", valueName: "--OPTION VALUE"))
    var words: [String] = []

    func run() async throws {
        await SingleStepRun.main(UpdateProjectProvisioning.self, arguments: ["xcodeproj:\(project)"] + (try Self.door.options(from: words)))
    }
}

/// Which targets a pattern selected, and which it left out.
private func matchLine(_ selection: TargetSelection) -> String {
    let skipped = selection.unmatched.isEmpty ? "" : " (not matched: \(selection.unmatched.map(\.name).joined(separator: ", ")))"
    return "targets matching '\(selection.pattern)': \(selection.matched.map(\.name).joined(separator: ", "))\(skipped)"
}
