import LanesXcode
// PropertyListSerialization (Info.plist and entitlements files) is Foundation's.
internal import Foundation
internal import LanesPlatform

/// `update_project_team` (fastlane's action of that name): `DEVELOPMENT_TEAM` in every build
/// configuration of the targets (all of them, or those named exactly).
public struct UpdateProjectTeam: Step {
    public typealias Output = XcodeEditResult

    public static let definition = StepDefinition(
        id: "update_project_team",
        summary: "Set the development team (DEVELOPMENT_TEAM) of Xcode targets",
        category: .xcode,
        examples: [StepExample(swift: #"try await updateProjectTeam(xcodeproj: "Brewer.xcodeproj", targets: ["Brewer"], teamID: "ABCDE12345")"#,
                               commandLine: ["path:Brewer.xcodeproj", "targets:Brewer", "teamid:ABCDE12345"])]
    )

    @StepOption("xcodeproj", "The .xcodeproj (default: the only one in the Lanefile's folder)", env: "LANES_XCODEPROJ",
                fastlaneEnv: ["FL_PROJECT_SIGNING_PROJECT_PATH"], aliases: ["path"])
    var xcodeproj: String?
    @StepOption("targets", "Target names, matched exactly; all targets when absent", fastlaneEnv: ["FL_PROJECT_TARGET"], default: [],
                aliases: ["target"])
    var targets: [String]
    @StepOption("teamid", "The team id (default: the lane's Configuration's teamID)", env: "LANES_TEAM_ID",
                fastlaneEnv: ["FL_PROJECT_TEAM_ID", "TEAM_ID"], aliases: ["team_id"], appfile: .teamID)
    var teamID: String

    public init() {}

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        let file = XcodeProjectFile(try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: Self.definition.id), in: context)
        let project = try file.load()
        let (selection, configurations) = try selectConfigurations(in: project, targets: targets.isEmpty ? .all : .named(targets),
                                                                   configurations: .all, context: context)
        var session = ProjectEditSession(project: project)
        for configuration in configurations { try session.setBuildSetting("DEVELOPMENT_TEAM", to: .string(teamID), in: configuration) }
        try file.save(try session.finishedBytes(), original: project)
        context.logChanges(session.changes, file: file.path)
        return XcodeEditResult(projectFile: file.path, matchedTargets: selection.matched.map(\.name), changes: session.changes)
    }
}

/// `update_app_identifier` (fastlane's): the app's bundle identifier where the project keeps it:
/// `PRODUCT_BUNDLE_IDENTIFIER` of the configurations using the Info.plist when the plist says
/// `$(PRODUCT_BUNDLE_IDENTIFIER)`, else the plist's literal `CFBundleIdentifier`.
public struct UpdateAppIdentifier: Step {
    public typealias Output = XcodeEditResult

    public static let definition = StepDefinition(
        id: "update_app_identifier",
        summary: "Set the app's bundle identifier in the project or its Info.plist",
        category: .xcode,
        examples: [StepExample(swift: #"try await updateAppIdentifier(xcodeproj: "Brewer.xcodeproj", plistPath: "Brewer/Info.plist", appIdentifier: "works.sth.brewer.beta")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj", "plist_path:Brewer/Info.plist", "app_identifier:works.sth.brewer.beta"])]
    )

    @StepOption("xcodeproj", "The .xcodeproj (default: the only one in the Lanefile's folder)", env: "LANES_XCODEPROJ",
                fastlaneEnv: ["FL_UPDATE_APP_IDENTIFIER_PROJECT_PATH"])
    var xcodeproj: String?
    @StepOption("plist_path", "The Info.plist, relative to the project's folder", fastlaneEnv: ["FL_UPDATE_APP_IDENTIFIER_PLIST_PATH"])
    var plistPath: String
    @StepOption("app_identifier", "The new bundle identifier (default: the lane's Configuration's)", env: "APP_IDENTIFIER",
                fastlaneEnv: ["PRODUCE_APP_IDENTIFIER"], appfile: .appIdentifier)
    var appIdentifier: String

    public init() {}

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        let step = Self.definition.id
        let file = XcodeProjectFile(try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: step), in: context)
        let plist = file.absolute(plistPath)
        var editor = try InfoPlistFile.editor(plist, step: step)
        let current = try InfoPlistFile.string("CFBundleIdentifier", in: editor, path: plist)
        guard current == "$(PRODUCT_BUNDLE_IDENTIFIER)" || current == "${PRODUCT_BUNDLE_IDENTIFIER}" else {
            let before = try InfoPlistFile.set("CFBundleIdentifier", to: appIdentifier, in: &editor, path: plist)
            try InfoPlistFile.write(editor, to: plist)
            context.log.line("changed \(plist): CFBundleIdentifier \(before ?? "(absent)") -> \(appIdentifier)")
            return XcodeEditResult(projectFile: file.path, matchedTargets: [], changes: [],
                                   infoPlistChanges: before == appIdentifier ? [] : [InfoPlistChange(file: plist, key: "CFBundleIdentifier", before: before, after: appIdentifier)])
        }
        let project = try file.load()
        // The configurations (target or project level) whose INFOPLIST_FILE is this plist and that set the identifier.
        var configurations: [BuildConfiguration] = []
        do {
            for configuration in try project.projectConfigurations() + project.targets.flatMap({ try project.configurations(of: $0) }) {
                guard configuration.settings["PRODUCT_BUNDLE_IDENTIFIER"] != nil,
                      let relative = try project.infoPlistPath(of: configuration), file.absolute(relative) == plist else { continue }
                configurations.append(configuration)
            }
        } catch { throw LanesError(.configuration, "\(file.path): \(error)") }
        guard !configurations.isEmpty else {
            throw LanesError(.configuration, "\(step): \(plist) uses $(PRODUCT_BUNDLE_IDENTIFIER), but no configuration of \(file.path) with that Info.plist sets it")
        }
        var session = ProjectEditSession(project: project)
        for configuration in configurations {
            try session.setBuildSetting("PRODUCT_BUNDLE_IDENTIFIER", to: .string(appIdentifier), in: configuration)
        }
        try file.save(try session.finishedBytes(), original: project)
        context.logChanges(session.changes, file: file.path)
        return XcodeEditResult(projectFile: file.path, matchedTargets: Array(Set(configurations.compactMap { $0.target?.name })).sorted(),
                               changes: session.changes)
    }
}

/// `update_info_plist` (fastlane's): an Info.plist's `CFBundleIdentifier` and `CFBundleDisplayName`;
/// the plist given, or that of the target named `scheme` (fastlane takes the scheme as a target name).
public struct UpdateInfoPlist: Step {
    public typealias Output = XcodeEditResult

    public static let definition = StepDefinition(
        id: "update_info_plist",
        summary: "Set CFBundleIdentifier and CFBundleDisplayName in an Info.plist",
        category: .xcode,
        examples: [StepExample(swift: #"try await updateInfoPlist(plistPath: "Brewer/Info.plist", appIdentifier: "works.sth.brewer.beta", displayName: "Brewer β")"#,
                               commandLine: ["plist_path:Brewer/Info.plist", "app_identifier:works.sth.brewer.beta", "display_name:Brewer β"])]
    )

    @StepOption("xcodeproj", "The .xcodeproj the plist path is relative to (default: the only one in the Lanefile's folder)", env: "LANES_XCODEPROJ",
                fastlaneEnv: ["FL_UPDATE_PLIST_PROJECT_PATH"])
    var xcodeproj: String?
    @StepOption("plist_path", "The Info.plist, relative to the project's folder (or give scheme)", fastlaneEnv: ["FL_UPDATE_PLIST_PATH"])
    var plistPath: String?
    @StepOption("scheme", "The target whose Info.plist to edit (fastlane's name for it)", fastlaneEnv: ["FL_UPDATE_PLIST_APP_SCHEME"])
    var scheme: String?
    @StepOption("app_identifier", "The new CFBundleIdentifier", fastlaneEnv: ["PRODUCE_APP_IDENTIFIER"])
    var appIdentifier: String?
    @StepOption("display_name", "The new CFBundleDisplayName")
    var displayName: String?

    public init() {}

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        let step = Self.definition.id
        guard appIdentifier != nil || displayName != nil else {
            throw LanesError(.usage, "\(step): nothing to change", hint: "give app_identifier:, display_name:, or both")
        }
        let file = XcodeProjectFile(try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: step), in: context)
        var relative = plistPath
        if relative == nil, let scheme {
            let project = try file.load()
            guard let target = project.targets.first(where: { $0.name == scheme }) else {
                throw LanesError(.configuration, "\(step): no target named '\(scheme)'; targets: \(project.targets.map { "'\($0.name)'" }.joined(separator: ", "))")
            }
            let configuration = try? project.configurations(of: target).first
            relative = configuration.flatMap { try? project.infoPlistPath(of: $0) }
            guard relative != nil else { throw LanesError(.configuration, "\(step): target '\(scheme)' has no INFOPLIST_FILE") }
        }
        guard let relative else { throw LanesError(.usage, "\(step): give plist_path: or scheme:") }
        let plist = file.absolute(relative)
        var editor = try InfoPlistFile.editor(plist, step: step)
        var changes: [InfoPlistChange] = []
        for (key, value) in [("CFBundleIdentifier", appIdentifier), ("CFBundleDisplayName", displayName)] {
            guard let value else { continue }
            let before = try InfoPlistFile.set(key, to: value, in: &editor, path: plist)
            if before != value { changes.append(InfoPlistChange(file: plist, key: key, before: before, after: value)) }
        }
        if !changes.isEmpty { try InfoPlistFile.write(editor, to: plist) }
        for change in changes { context.log.line("changed \(change)") }
        if changes.isEmpty { context.log.line("\(plist): already up to date") }
        return XcodeEditResult(projectFile: file.path, matchedTargets: scheme.map { [$0] } ?? [], changes: [], infoPlistChanges: changes)
    }
}

/// `update_app_group_identifiers` (fastlane's): replaces the entitlements file's
/// `com.apple.security.application-groups`, which must already be there.
public struct UpdateAppGroupIdentifiers: Step {
    public static let definition = StepDefinition(
        id: "update_app_group_identifiers",
        summary: "Replace the app group identifiers of an entitlements file",
        category: .xcode,
        examples: [StepExample(swift: #"try await updateAppGroupIdentifiers(entitlementsFile: "Brewer/Brewer.entitlements", appGroupIdentifiers: ["group.works.sth.brewer"])"#,
                               commandLine: ["entitlements_file:Brewer/Brewer.entitlements", "app_group_identifiers:group.works.sth.brewer"])]
    )

    @StepOption("entitlements_file", "The .entitlements file", fastlaneEnv: ["FL_UPDATE_APP_GROUP_IDENTIFIER_ENTITLEMENTS_FILE_PATH"])
    var entitlementsFile: String
    @StepOption("app_group_identifiers", "The app groups (comma-separated on the command line)",
                fastlaneEnv: ["FL_UPDATE_APP_GROUP_IDENTIFIER_APP_GROUP_IDENTIFIERS"])
    var appGroupIdentifiers: [String]

    public init() {}

    public func run(in context: StepContext) async throws {
        try EntitlementsFile.replace("com.apple.security.application-groups", with: appGroupIdentifiers, in: context.resolve(entitlementsFile),
                                     step: Self.definition.id, what: "App Group", log: context.log)
    }
}

/// `update_keychain_access_groups` (fastlane's): replaces the entitlements file's
/// `keychain-access-groups`, which must already be there.
public struct UpdateKeychainAccessGroups: Step {
    public static let definition = StepDefinition(
        id: "update_keychain_access_groups",
        summary: "Replace the keychain access groups of an entitlements file",
        category: .xcode,
        examples: [StepExample(swift: #"try await updateKeychainAccessGroups(entitlementsFile: "Brewer/Brewer.entitlements", identifiers: ["$(AppIdentifierPrefix)works.sth.brewer"])"#,
                               commandLine: ["entitlements_file:Brewer/Brewer.entitlements", "identifiers:$(AppIdentifierPrefix)works.sth.brewer"])]
    )

    @StepOption("entitlements_file", "The .entitlements file", fastlaneEnv: ["FL_UPDATE_KEYCHAIN_ACCESS_GROUPS_ENTITLEMENTS_FILE_PATH"])
    var entitlementsFile: String
    @StepOption("identifiers", "The keychain access groups (comma-separated on the command line)",
                fastlaneEnv: ["FL_UPDATE_KEYCHAIN_ACCESS_GROUPS_IDENTIFIERS"])
    var identifiers: [String]

    public init() {}

    public func run(in context: StepContext) async throws {
        try EntitlementsFile.replace("keychain-access-groups", with: identifiers, in: context.resolve(entitlementsFile),
                                     step: Self.definition.id, what: "keychain access groups", log: context.log)
    }
}

/// Reading and writing whole property lists the steps edit.
enum InfoPlistFile {
    static func editor(_ path: String, step: String) throws -> InfoPlistEditor {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LanesError(.configuration, "\(step): cannot read the Info.plist \(path)", hint: "plist paths are relative to the .xcodeproj's folder")
        }
        do { return try InfoPlistEditor(bytes: Array(data), path: path) } catch { throw LanesError(.configuration, "\(error)") }
    }

    static func string(_ key: String, in editor: InfoPlistEditor, path: String) throws -> String? {
        do { return try editor.string(forKey: key) } catch { throw LanesError(.configuration, "\(error)") }
    }

    static func set(_ key: String, to value: String, in editor: inout InfoPlistEditor, path: String) throws -> String? {
        do { return try editor.set(key, to: value) } catch { throw LanesError(.configuration, "\(error)") }
    }

    static func write(_ editor: InfoPlistEditor, to path: String) throws {
        do { try AtomicFile.write(editor.bytes, to: path) } catch { throw LanesError(.laneFailure, "\(error)") }
    }
}

enum EntitlementsFile {
    /// Sets `key` to `values` in an entitlements plist that already has the key, rewriting the file
    /// as XML (as fastlane's `save_plist` does), atomically.
    static func replace(_ key: String, with values: [String], in path: String, step: String, what: String, log: StepLog) throws {
        guard let data = FileManager.default.contents(atPath: path) else {
            throw LanesError(.configuration, "\(step): could not find the entitlements file \(path)")
        }
        guard var plist = (try? PropertyListSerialization.propertyList(from: data, format: nil)) as? [String: Any] else {
            throw LanesError(.configuration, "\(step): \(path) cannot be parsed as a property list")
        }
        guard let old = plist[key] else {
            throw LanesError(.configuration, "\(step): \(path) has no \(key); add the \(what) capability in Xcode first")
        }
        plist[key] = values
        let bytes: Data
        do { bytes = try PropertyListSerialization.data(fromPropertyList: plist, format: .xml, options: 0) } catch {
            throw LanesError(.laneFailure, "\(step): cannot write \(path): \(error)")
        }
        do { try AtomicFile.write(Array(bytes), to: path) } catch { throw LanesError(.laneFailure, "\(error)") }
        log.line("\(path): \(key) \((old as? [String])?.joined(separator: ", ") ?? "\(old)") -> \(values.joined(separator: ", "))")
    }
}
