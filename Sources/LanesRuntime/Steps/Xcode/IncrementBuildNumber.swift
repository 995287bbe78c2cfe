import LanesXcode
internal import LanesPlatform

/// Sets the build number (`CURRENT_PROJECT_VERSION`, and `CFBundleVersion` where an Info.plist holds it
/// literally): to the given value, or one more than the highest the selected targets hold.
public struct IncrementBuildNumber: Step {
    public typealias Output = XcodeEditResult

    public static let definition = StepDefinition(
        id: "increment_build_number",
        summary: "Increment or set CURRENT_PROJECT_VERSION (and literal CFBundleVersion values)",
        category: .xcode,
        examples: [StepExample(swift: #"try await incrementBuildNumber(xcodeproj: "Brewer.xcodeproj")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj"]),
                   StepExample(swift: #"try await incrementBuildNumber(xcodeproj: "Brewer.xcodeproj", buildNumber: "42")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj", "build_number:42"])]
    )

    @StepOption("xcodeproj", "The .xcodeproj (or the folder holding it); default: the one in the Lanefile's folder, as agvtool finds it",
                env: "LANES_XCODEPROJ", fastlaneEnv: ["FL_BUILD_NUMBER_PROJECT"])
    var xcodeproj: String?
    @StepOption("build_number", "The new build number; the current one plus one when absent", env: "LANES_BUILD_NUMBER",
                fastlaneEnv: ["FL_BUILD_NUMBER_BUILD_NUMBER"])
    var buildNumber: String?
    @StepOption("skip_info_plist", "Leave the Info.plist files alone (only the build setting changes)", fastlaneEnv: ["FL_BUILD_NUMBER_SKIP_INFO_PLIST"],
                default: false)
    var skipInfoPlist: Bool
    @StepOption("targets", "Target names, matched exactly; all targets when absent", default: [], aliases: ["target"])
    var targets: [String]

    public init() {}

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        try await runVersionStep(.build, explicit: buildNumber, xcodeproj: try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: Self.definition.id),
                                 targets: targets, skipInfoPlist: skipInfoPlist, context: context)
    }
}

/// Sets the marketing version (`MARKETING_VERSION`, and `CFBundleShortVersionString` where an Info.plist
/// holds it literally).
public struct SetVersionNumber: Step {
    public typealias Output = XcodeEditResult

    public static let definition = StepDefinition(
        id: "set_version_number",
        summary: "Set MARKETING_VERSION (and literal CFBundleShortVersionString values)",
        category: .xcode,
        examples: [StepExample(swift: #"try await setVersionNumber(xcodeproj: "Brewer.xcodeproj", versionNumber: "2.1.0")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj", "version_number:2.1.0"])]
    )

    @StepOption("xcodeproj", "The .xcodeproj (or the folder holding it); default: the one in the Lanefile's folder",
                env: "LANES_XCODEPROJ", fastlaneEnv: ["FL_VERSION_NUMBER_PROJECT"])
    var xcodeproj: String?
    @StepOption("version_number", "The new version, such as 2.1.0", env: "LANES_VERSION_NUMBER", fastlaneEnv: ["FL_VERSION_NUMBER_VERSION_NUMBER"])
    var versionNumber: String
    @StepOption("targets", "Target names, matched exactly; all targets when absent", default: [], aliases: ["target"])
    var targets: [String]

    public init() {}

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        try await runVersionStep(.marketing, explicit: versionNumber, xcodeproj: try ProjectDiscovery.xcodeproj(xcodeproj, in: context, step: Self.definition.id),
                                 targets: targets, context: context)
    }
}

func runVersionStep(_ version: VersionNumber, explicit: String?, xcodeproj: String, targets: [String], skipInfoPlist: Bool = false,
                    context: StepContext) async throws -> XcodeEditResult {
    let file = XcodeProjectFile(xcodeproj, in: context)
    let project = try file.load()
    let selection: TargetSelection
    do { selection = try project.targets(targets.isEmpty ? .all : .named(targets)) } catch { throw LanesError(.configuration, "\(file.path): \(error)") }
    context.logSelection(selection)
    let update = VersionUpdate(version: version, file: file, skipInfoPlist: skipInfoPlist)
    let plan = try update.plan(project, targets: selection.matched)
    let value: String
    if let explicit {
        value = explicit
    } else {
        let current = update.currentValues(plan).max { VersionNumber.isOlder($0, than: $1) } ?? "0"
        guard let next = VersionNumber.incremented(current) else {
            throw LanesError(.configuration, "\(version.buildSettingKey) is '\(current)', which does not end in a number",
                             hint: "pass build_number explicitly")
        }
        context.log.line("\(version.buildSettingKey): \(current) -> \(next)")
        value = next
    }
    return try update.apply(value, plan: plan, project: project, matched: selection.matched.map(\.name), context: context)
}
