import LanesXcode

/// Sets the build number (`CURRENT_PROJECT_VERSION`, and `CFBundleVersion` where an Info.plist holds it
/// literally): to the given value, or one more than the highest the selected targets hold.
public struct IncrementBuildNumber: Step {
    public typealias Output = XcodeEditResult

    public static let xcodeproj = StepOption<String>("xcodeproj", "Path to the .xcodeproj folder", env: "LANES_XCODEPROJ")
    public static let buildNumber = StepOption<String>.optional("build_number", "The new build number; the current one plus one when absent",
                                                                env: "LANES_BUILD_NUMBER")
    public static let target = StepOption<String>.optional("target", "Regular expression searched in target names; all targets when absent")

    public static let info = StepInfo(
        id: "increment_build_number",
        summary: "Increment or set CURRENT_PROJECT_VERSION (and literal CFBundleVersion values)",
        options: [xcodeproj.info, buildNumber.info, target.info],
        examples: [StepExample(swift: #"try await incrementBuildNumber(xcodeproj: "Brewer.xcodeproj")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj"]),
                   StepExample(swift: #"try await incrementBuildNumber(xcodeproj: "Brewer.xcodeproj", buildNumber: "42")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj", "build_number:42"])]
    )

    public let xcodeproj: String
    public let buildNumber: String?
    public let target: String?

    public init(xcodeproj: String, buildNumber: String? = nil, target: String? = nil) {
        self.xcodeproj = xcodeproj
        self.buildNumber = buildNumber
        self.target = target
    }

    public init(options: OptionValues) throws {
        self.init(xcodeproj: try options[Self.xcodeproj], buildNumber: try options.optional(Self.buildNumber),
                  target: try options.optional(Self.target))
    }

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        try await runVersionStep(.build, explicit: buildNumber, xcodeproj: xcodeproj, target: target, context: context)
    }
}

/// Sets the marketing version (`MARKETING_VERSION`, and `CFBundleShortVersionString` where an Info.plist
/// holds it literally).
public struct SetVersionNumber: Step {
    public typealias Output = XcodeEditResult

    public static let xcodeproj = StepOption<String>("xcodeproj", "Path to the .xcodeproj folder", env: "LANES_XCODEPROJ")
    public static let versionNumber = StepOption<String>("version_number", "The new version, such as 2.1.0", env: "LANES_VERSION_NUMBER")
    public static let target = StepOption<String>.optional("target", "Regular expression searched in target names; all targets when absent")

    public static let info = StepInfo(
        id: "set_version_number",
        summary: "Set MARKETING_VERSION (and literal CFBundleShortVersionString values)",
        options: [xcodeproj.info, versionNumber.info, target.info],
        examples: [StepExample(swift: #"try await setVersionNumber(xcodeproj: "Brewer.xcodeproj", versionNumber: "2.1.0")"#,
                               commandLine: ["xcodeproj:Brewer.xcodeproj", "version_number:2.1.0"])]
    )

    public let xcodeproj: String
    public let versionNumber: String
    public let target: String?

    public init(xcodeproj: String, versionNumber: String, target: String? = nil) {
        self.xcodeproj = xcodeproj
        self.versionNumber = versionNumber
        self.target = target
    }

    public init(options: OptionValues) throws {
        self.init(xcodeproj: try options[Self.xcodeproj], versionNumber: try options[Self.versionNumber],
                  target: try options.optional(Self.target))
    }

    public func run(in context: StepContext) async throws -> XcodeEditResult {
        try await runVersionStep(.marketing, explicit: versionNumber, xcodeproj: xcodeproj, target: target, context: context)
    }
}

private func runVersionStep(_ version: VersionNumber, explicit: String?, xcodeproj: String, target: String?,
                            context: StepContext) async throws -> XcodeEditResult {
    let file = XcodeProjectFile(xcodeproj, in: context)
    let project = try file.load()
    let selection: TargetSelection
    do { selection = try project.targets(matching: target ?? ".*") } catch { throw LanesError(.configuration, "\(file.path): \(error)") }
    context.logSelection(selection)
    let update = VersionUpdate(version: version, file: file)
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

/// Increments (or sets) the build number; see `IncrementBuildNumber`.
@discardableResult
public func incrementBuildNumber(xcodeproj: String, buildNumber: String? = nil, target: String? = nil) async throws -> XcodeEditResult {
    try await runStep(IncrementBuildNumber(xcodeproj: xcodeproj, buildNumber: buildNumber, target: target))
}

/// Sets the marketing version; see `SetVersionNumber`.
@discardableResult
public func setVersionNumber(xcodeproj: String, versionNumber: String, target: String? = nil) async throws -> XcodeEditResult {
    try await runStep(SetVersionNumber(xcodeproj: xcodeproj, versionNumber: versionNumber, target: target))
}
