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

/// Exit statuses of `lanes xcode`, as the README documents them.
private enum XcodeExit {
    static func fail(_ message: String, status: Int32) -> ExitCode {
        FileHandle.standardError.write(Data(("error: " + message + "\n").utf8))
        return ExitCode(status)
    }
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
            throw XcodeExit.fail("cannot read \(pbxproj); pass the .xcodeproj folder", status: 78)
        }
        do {
            return try XcodeProject(bytes: Array(data), path: pbxproj)
        } catch {
            throw XcodeExit.fail("\(error)", status: 78)
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
                if !json { print(matchLine(selection)) }
                configurations = try xcodeProject.configurations(of: selection.matched, filter)
            } else {
                configurations = try xcodeProject.projectConfigurations(filter)
                    + xcodeProject.targets.flatMap { try xcodeProject.configurations(of: $0).filter { try filter.accepts($0.name) } }
            }
        } catch {
            throw XcodeExit.fail("\(error)", status: 78)
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
            for (key, value) in written.sorted(by: { $0.key < $1.key }) { print("  \(key) = \(value)") }
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
                print("  \(setting.key) = \(setting.value)    (from \(setting.source))")
            }
        }
    }
}

struct XcodeSetCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "set",
        abstract: "Set build settings; only the changed values' bytes are rewritten.")

    @Argument(help: "The .xcodeproj folder (or its project.pbxproj).") var project: String
    @Option(help: "Regular expression searched in target names, as written.") var target: String
    @Option(help: "Build configuration name, matched exactly.") var configuration: String
    @Argument(help: "KEY=VALUE assignments.") var assignments: [String]

    func run() throws {
        var pairs: [(String, String)] = []
        for assignment in assignments {
            guard let equals = assignment.firstIndex(of: "="), equals != assignment.startIndex else {
                throw XcodeExit.fail("'\(assignment)' is not KEY=VALUE", status: 64)
            }
            pairs.append((String(assignment[..<equals]), String(assignment[assignment.index(after: equals)...])))
        }
        let argument = ProjectArgument(project)
        let xcodeProject = try argument.load()
        do {
            let selection = try xcodeProject.targets(matching: target)
            var session = ProjectEditSession(project: xcodeProject)
            for configuration in try xcodeProject.configurations(of: selection.matched, .named(configuration)) {
                for (key, value) in pairs { try session.setBuildSetting(key, to: .string(value), in: configuration) }
            }
            try write(session, original: xcodeProject, to: argument.pbxproj, selection: selection)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw XcodeExit.fail("\(error)", status: 78)
        }
    }
}

struct XcodeProvisionCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "provision",
        abstract: "Point targets at a provisioning profile: specifier, UUID, team, manual style, identity.")

    @Argument(help: "The .xcodeproj folder (or its project.pbxproj).") var project: String
    @Option(help: "The .mobileprovision file.") var profile: String
    @Option(help: "Regular expression searched in target names, as written.") var target: String
    @Option(help: "Build configuration name, matched exactly.") var configuration: String
    @Option(help: "CODE_SIGN_IDENTITY to write; by default the identity the profile implies.") var identity: String?

    func run() throws {
        let argument = ProjectArgument(project)
        let xcodeProject = try argument.load()
        do {
            let facts = try ProvisioningFacts.read(profileAt: profile)
            let settings = SigningSettings(profile: facts, identity: identity)
            print("profile '\(facts.name)' (\(facts.uuid)), team \(facts.teamIdentifier), identity '\(settings.identity ?? "")'")
            let selection = try xcodeProject.targets(matching: target)
            var session = ProjectEditSession(project: xcodeProject)
            try session.applySigning(settings, to: try xcodeProject.configurations(of: selection.matched, .named(configuration)))
            try write(session, original: xcodeProject, to: argument.pbxproj, selection: selection)
        } catch let exit as ExitCode {
            throw exit
        } catch {
            throw XcodeExit.fail("\(error)", status: 78)
        }
    }
}

/// Writes an edit session's result atomically and prints what changed.
private func write(_ session: ProjectEditSession, original: XcodeProject, to path: String, selection: TargetSelection) throws {
    print(matchLine(selection))
    let edited = try session.finishedBytes()
    if edited != original.document.bytes {
        try AtomicFile.write(edited, to: path)
    }
    if session.changes.isEmpty { print("already up to date, nothing changed") }
    for change in session.changes { print("changed \(change)") }
}

/// Which targets a pattern selected, and which it left out.
private func matchLine(_ selection: TargetSelection) -> String {
    let skipped = selection.unmatched.isEmpty ? "" : " (not matched: \(selection.unmatched.map(\.name).joined(separator: ", ")))"
    return "targets matching '\(selection.pattern)': \(selection.matched.map(\.name).joined(separator: ", "))\(skipped)"
}
