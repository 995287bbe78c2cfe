import LanesXcode
internal import Foundation
internal import LanesPlatform

/// A `project.pbxproj` a step edits: found from the `.xcodeproj` path (or the pbxproj itself),
/// read and parsed with errors that name the file, and written back atomically only when changed.
struct XcodeProjectFile {
    /// The `project.pbxproj` file.
    let path: String
    /// The folder holding the `.xcodeproj`: where `SOURCE_ROOT` and `<group>` paths start.
    let projectRoot: String

    init(_ xcodeproj: String, in context: StepContext) {
        let resolved = context.resolve(xcodeproj)
        let trimmed = resolved.hasSuffix("/") ? String(resolved.dropLast()) : resolved
        let projectFolder: String
        if trimmed.hasSuffix(".pbxproj") {
            path = trimmed
            projectFolder = (trimmed as NSString).deletingLastPathComponent
        } else {
            path = trimmed + "/project.pbxproj"
            projectFolder = trimmed
        }
        projectRoot = (projectFolder as NSString).deletingLastPathComponent
    }

    func load() throws -> XcodeProject {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LanesError(.configuration, "cannot read \(path)",
                             hint: "pass the .xcodeproj folder (or its project.pbxproj), relative to the Lanefile's folder")
        }
        do {
            return try XcodeProject(bytes: Array(data), path: path)
        } catch {
            throw LanesError(.configuration, "\(error)")
        }
    }

    /// Writes the edited project, unless nothing changed.
    func save(_ edited: [UInt8], original: XcodeProject) throws {
        guard edited != original.document.bytes else { return }
        do {
            try AtomicFile.write(edited, to: path)
        } catch {
            throw LanesError(.laneFailure, "\(error)")
        }
    }

    /// A project-relative path made absolute.
    func absolute(_ relative: String) -> String {
        relative.hasPrefix("/") ? relative : projectRoot + "/" + relative
    }
}

/// What an Xcode editing step did: the targets its filter selected and every value it changed.
public struct XcodeEditResult: Sendable, Hashable, Codable {
    /// The `project.pbxproj` edited.
    public let projectFile: String
    /// Names of the targets the filter matched (empty for project-level edits).
    public let matchedTargets: [String]
    public let changes: [XcodeSettingChange]
    /// Info.plist edits (version steps only).
    public let infoPlistChanges: [InfoPlistChange]

    public init(projectFile: String, matchedTargets: [String], changes: [XcodeSettingChange],
                infoPlistChanges: [InfoPlistChange] = []) {
        self.projectFile = projectFile
        self.matchedTargets = matchedTargets
        self.changes = changes
        self.infoPlistChanges = infoPlistChanges
    }
}

/// One value changed in an Info.plist.
public struct InfoPlistChange: Sendable, Hashable, Codable, CustomStringConvertible {
    public let file: String
    public let key: String
    public let before: String?
    public let after: String

    public var description: String { "\(file) \(key): \(before.map { "'\($0)'" } ?? "(unset)") -> '\(after)'" }
}

extension StepContext {
    /// Says which targets a filter selected and which it left, so an over-broad pattern shows.
    func logSelection(_ selection: TargetSelection) {
        let skipped = selection.unmatched.isEmpty ? "" : " (not matched: \(selection.unmatched.map(\.name).joined(separator: ", ")))"
        log.line("targets \(selection.pattern): \(selection.matched.map(\.name).joined(separator: ", "))\(skipped)")
    }

    func logChanges(_ changes: [XcodeSettingChange], file: String) {
        if changes.isEmpty { log.line("\(file): already up to date, nothing changed") }
        for change in changes { log.line("changed \(change)") }
    }
}

/// The selected configurations: the targets and a configuration filter.
func selectConfigurations(in project: XcodeProject, targets: TargetFilter, configurations filter: ConfigurationFilter,
                          context: StepContext) throws -> (TargetSelection, [BuildConfiguration]) {
    do {
        let selection = try project.targets(targets)
        context.logSelection(selection)
        return (selection, try project.configurations(of: selection.matched, filter))
    } catch {
        throw LanesError(.configuration, "\(project.document.path ?? "project.pbxproj"): \(error)")
    }
}

extension TargetFilter {
    /// Exact names (all targets when none is given), or a step's regular expression where it has one.
    static func given(names: [String], pattern: String? = nil, step: String) throws -> TargetFilter {
        switch (names.isEmpty, pattern) {
        case (true, nil): .all
        case (false, nil): .named(names)
        case (true, let pattern?): .matching(pattern)
        case (false, _?): throw LanesError(.usage, "\(step): give targets (exact names) or target_filter (a regular expression), not both")
        }
    }
}

extension ConfigurationFilter {
    /// Exact names (all configurations when none is given), or one regular expression.
    static func given(names: [String], isRegex: Bool = false) -> ConfigurationFilter {
        if isRegex, let pattern = names.first { return .matching(names.count == 1 ? pattern : names.map { "(?:\($0))" }.joined(separator: "|")) }
        return names.isEmpty ? .all : .namedAny(names)
    }
}
