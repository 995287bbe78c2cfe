import LanesXcode
internal import Foundation
internal import LanesPlatform

/// Which number `ReadProjectVersion` reads: `get_version_number` and `get_build_number` are one
/// step (same options, same reading) that differ only in the build setting and their description.
public protocol ProjectVersionField: Sendable {
    static var version: VersionNumber { get }
    static var definition: StepDefinition { get }
    /// fastlane's variables for the action's `xcodeproj` and `target`.
    static var projectVariables: [String] { get }
    static var targetVariables: [String] { get }
}

/// Reads the highest value of one version field the project's targets hold.
public struct ReadProjectVersion<Field: ProjectVersionField>: Step {
    public typealias Output = String

    public static var definition: StepDefinition { Field.definition }

    @StepOption("xcodeproj", "The .xcodeproj (or the folder holding it); default: the one in the Lanefile's folder, as agvtool finds it",
                env: "LANES_XCODEPROJ", fastlaneEnv: Field.projectVariables)
    var xcodeproj: String?
    @StepOption("targets", "Target names, matched exactly; all targets when absent", fastlaneEnv: Field.targetVariables, default: [],
                aliases: ["target"])
    var targets: [String]

    public init() {}

    public func run(in context: StepContext) async throws -> String {
        try readVersion(Field.version, xcodeproj: try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: Field.definition.id),
                        targets: targets, context: context)
    }
}

/// `get_version_number`: the marketing version the project's targets hold.
public typealias GetVersionNumber = ReadProjectVersion<MarketingVersionField>

public enum MarketingVersionField: ProjectVersionField {
    public static let version = VersionNumber.marketing
    public static let projectVariables = ["FL_VERSION_NUMBER_PROJECT"]
    public static let targetVariables = ["FL_VERSION_NUMBER_TARGET"]
    public static let definition = StepDefinition(
        id: "get_version_number",
        summary: "Read MARKETING_VERSION (or a literal CFBundleShortVersionString) from the project",
        category: .xcode,
        examples: [StepExample(swift: #"let version = try await getVersionNumber(xcodeproj: "Brewer.xcodeproj")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj"])]
    )
}

/// `get_build_number`: the build number the project's targets hold.
public typealias GetBuildNumber = ReadProjectVersion<BuildNumberField>

public enum BuildNumberField: ProjectVersionField {
    public static let version = VersionNumber.build
    public static let projectVariables = ["FL_BUILD_NUMBER_PROJECT"]
    public static let targetVariables: [String] = []
    public static let definition = StepDefinition(
        id: "get_build_number",
        summary: "Read CURRENT_PROJECT_VERSION (or a literal CFBundleVersion) from the project",
        category: .xcode,
        examples: [StepExample(swift: #"let build = try await getBuildNumber(xcodeproj: "Brewer.xcodeproj")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj"])]
    )
}

/// Which part of a semantic version `increment_version_number` raises: fastlane's `bump` (its
/// default) raises the last number whatever the count (`1.2` -> `1.3`).
public enum BumpType: String, Sendable, CaseIterable, OptionValue {
    case bump, patch, minor, major
}

/// `increment_version_number`: raises the marketing version (patch, minor or major) or sets it.
public struct IncrementVersionNumber: Step {
    public typealias Output = String

    public static let definition = StepDefinition(
        id: "increment_version_number",
        summary: "Raise MARKETING_VERSION by a patch, minor or major step (or set it); returns the new version",
        category: .xcode,
        examples: [StepExample(swift: #"let version = try await incrementVersionNumber(xcodeproj: "Brewer.xcodeproj", bumpType: .minor)"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj", "bump_type:minor"]),
                   StepExample(swift: #"try await incrementVersionNumber(xcodeproj: "Brewer.xcodeproj", versionNumber: "2.0.0")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj", "version_number:2.0.0"])]
    )

    @StepOption("xcodeproj", "The .xcodeproj (or the folder holding it); default: the one in the Lanefile's folder, as agvtool finds it",
                env: "LANES_XCODEPROJ", fastlaneEnv: ["FL_VERSION_NUMBER_PROJECT"])
    var xcodeproj: String?
    @StepOption("bump_type", "bump (the last number), patch, minor or major", fastlaneEnv: ["FL_VERSION_NUMBER_BUMP_TYPE"], default: .bump)
    var bumpType: BumpType
    @StepOption("version_number", "Set this version instead of raising the current one", env: "LANES_VERSION_NUMBER",
                fastlaneEnv: ["FL_VERSION_NUMBER_VERSION_NUMBER"])
    var versionNumber: String?
    @StepOption("targets", "Target names, matched exactly; all targets when absent", default: [], aliases: ["target"])
    var targets: [String]

    public init() {}

    public func run(in context: StepContext) async throws -> String {
        let project = try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: Self.definition.id)
        let next: String
        if let versionNumber {
            next = versionNumber
        } else {
            let current = try readVersion(.marketing, xcodeproj: project, targets: targets, context: context)
            next = try Self.bumped(current, bumpType)
            context.log.line("MARKETING_VERSION: \(current) -> \(next) (\(bumpType.rawValue))")
        }
        _ = try await runVersionStep(.marketing, explicit: next, xcodeproj: project, targets: targets, context: context)
        return next
    }

    /// `1.4.2` raised by `bump`: `1.4.3`, `1.5.0` or `2.0.0` (missing parts count as 0).
    static func bumped(_ version: String, _ bump: BumpType) throws -> String {
        let parts = version.split(separator: ".", omittingEmptySubsequences: false).map { Int($0) }
        guard !parts.isEmpty, parts.count <= 3, parts.allSatisfy({ $0 != nil && $0! >= 0 }) else {
            throw LanesError(.configuration, "increment_version_number: MARKETING_VERSION is '\(version)', not MAJOR.MINOR.PATCH numbers",
                             hint: "pass version_number explicitly")
        }
        if bump == .bump { return (parts.dropLast().map { $0! } + [parts.last!! + 1]).map(String.init).joined(separator: ".") }
        var numbers = parts.map { $0! } + Array(repeating: 0, count: 3 - parts.count)
        switch bump {
        case .bump: break
        case .patch: numbers[2] += 1
        case .minor: numbers[1] += 1; numbers[2] = 0
        case .major: numbers[0] += 1; numbers[1] = 0; numbers[2] = 0
        }
        return numbers.map(String.init).joined(separator: ".")
    }
}

/// `get_info_plist_value`: one string value of a property list.
public struct GetInfoPlistValue: Step {
    public typealias Output = String?

    public static let definition = StepDefinition(
        id: "get_info_plist_value",
        summary: "Read a string value from an Info.plist (nil when the key is absent)",
        category: .xcode,
        examples: [StepExample(swift: #"let name = try await getInfoPlistValue(path: "Brewer/Info.plist", key: "CFBundleDisplayName")"#,
                               commandLine: ["path:Brewer/Info.plist", "key:CFBundleDisplayName"])]
    )

    @StepOption("path", "The Info.plist (XML)")
    var path: String
    @StepOption("key", "The key to read")
    var key: String

    public init() {}

    public func run(in context: StepContext) async throws -> String? {
        let file = context.resolve(path)
        let value = try plistEditor(file).string(forKey: key)
        context.log.line("\(key) = \(value ?? "(absent)")")
        return value
    }
}

/// `set_info_plist_value`: sets one string value of a property list, atomically.
public struct SetInfoPlistValue: Step {
    public static let definition = StepDefinition(
        id: "set_info_plist_value",
        summary: "Set a string value in an Info.plist (the file is rewritten atomically, other keys untouched)",
        category: .xcode,
        examples: [StepExample(swift: #"try await setInfoPlistValue(path: "Brewer/Info.plist", key: "CFBundleDisplayName", value: "Brewer β")"#,
                               commandLine: ["path:Brewer/Info.plist", "key:CFBundleDisplayName", "value:Brewer β"])]
    )

    @StepOption("path", "The Info.plist (XML)")
    var path: String
    @StepOption("key", "The key to set")
    var key: String
    @StepOption("value", "The new string value")
    var value: String

    public init() {}

    public func run(in context: StepContext) async throws {
        let file = context.resolve(path)
        var editor = try plistEditor(file)
        let before: String?
        do { before = try editor.set(key, to: value) } catch { throw LanesError(.configuration, "\(error)") }
        guard before != value else {
            context.log.line("\(key) is already \(value)")
            return
        }
        do { try AtomicFile.write(editor.bytes, to: file) } catch { throw LanesError(.laneFailure, "\(error)") }
        context.log.line("changed \(file): \(key) \(before ?? "(absent)") -> \(value)")
    }
}

private func plistEditor(_ path: String) throws -> InfoPlistEditor {
    guard let data = FileManager.default.contents(atPath: path) else {
        throw LanesError(.configuration, "cannot read Info.plist \(path)", hint: "paths are relative to the Lanefile's folder")
    }
    do { return try InfoPlistEditor(bytes: Array(data), path: path) } catch { throw LanesError(.configuration, "\(error)") }
}

/// The highest value of `version` the selected targets hold.
private func readVersion(_ version: VersionNumber, xcodeproj: String, targets: [String], context: StepContext) throws -> String {
    let file = XcodeProjectFile(xcodeproj, in: context)
    let project = try file.load()
    let selection: TargetSelection
    do { selection = try project.targets(targets.isEmpty ? .all : .named(targets)) } catch { throw LanesError(.configuration, "\(file.path): \(error)") }
    let update = VersionUpdate(version: version, file: file)
    let plan = try update.plan(project, targets: selection.matched)
    guard let value = update.currentValues(plan).max(by: { VersionNumber.isOlder($0, than: $1) }) else {
        throw LanesError(.configuration, "\(file.path): no target sets \(version.buildSettingKey) or a literal \(version.infoPlistKey)",
                         hint: targets.isEmpty ? "set the version in Xcode first" : "check the targets \(targets.joined(separator: ", "))")
    }
    context.log.line("\(version.buildSettingKey) = \(value)")
    return value
}
