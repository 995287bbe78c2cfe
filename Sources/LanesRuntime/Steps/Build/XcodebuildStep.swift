import LanesBuild
internal import LanesPlatform

/// `xcodebuild` (fastlane's xcodebuild, xcarchive, xcbuild, xcclean, xctest): one xcodebuild run with
/// the actions asked for, its output summarised and logged as build_app's. Without a workspace or
/// project it takes the folder's one workspace, else its one project (XCODE_WORKSPACE, XCODE_PROJECT
/// and XCODE_SCHEME are read as fastlane reads them).
public struct Xcodebuild: Step {
    public typealias Output = BuildToolReport

    public static let definition = StepDefinition(
        id: "xcodebuild",
        summary: "Run xcodebuild with the actions asked for (build, archive, test, clean, analyze)",
        category: .build,
        examples: [StepExample(swift: #"try await xcodebuild(scheme: "Brewer", archivePath: "build/Brewer.xcarchive", archive: true)"#,
                               commandLine: ["scheme:Brewer", "archive:true", "archive_path:build/Brewer.xcarchive"])],
        aliases: ["xcarchive", "xcbuild", "xcclean", "xctest"],
        aliasArguments: ["xcarchive": ["archive": "true"], "xcbuild": ["build": "true"], "xcclean": ["clean": "true"], "xctest": ["test": "true"]]
    )

    @StepOption("workspace", "The .xcworkspace (default: the only one in the Lanefile's folder)", fastlaneEnv: ["XCODE_WORKSPACE"])
    var workspace: String?
    @StepOption("project", "The .xcodeproj (default: the only one in the Lanefile's folder)", fastlaneEnv: ["XCODE_PROJECT"])
    var project: String?
    @StepOption("scheme", "The scheme", fastlaneEnv: ["XCODE_SCHEME"])
    var scheme: String?
    @StepOption("target", "A target, instead of a scheme (-target)")
    var target: String?
    @StepOption("configuration", "The build configuration (-configuration)")
    var configuration: String?
    @StepOption("sdk", "The SDK (-sdk)")
    var sdk: String?
    @StepOption("destination", "The -destination")
    var destination: String?
    @StepOption("archive_path", "The .xcarchive (-archivePath)")
    var archivePath: String?
    @StepOption("derived_data_path", "DerivedData folder (-derivedDataPath)", fastlaneEnv: ["XCODE_DERIVED_DATA_PATH"], aliases: ["derivedDataPath"])
    var derivedDataPath: String?
    @StepOption("result_bundle_path", "Where the .xcresult goes (-resultBundlePath)")
    var resultBundlePath: String?
    @StepOption("xcconfig", "An .xcconfig (-xcconfig)")
    var xcconfig: String?
    @StepOption("toolchain", "The toolchain (-toolchain)")
    var toolchain: String?
    @StepOption("clean", "The clean action", default: false)
    var clean: Bool
    @StepOption("build", "The build action", default: false)
    var build: Bool
    @StepOption("archive", "The archive action", default: false)
    var archive: Bool
    @StepOption("test", "The test action", default: false)
    var test: Bool
    @StepOption("analyze", "The analyze action", default: false)
    var analyze: Bool
    @StepOption("xcargs", "More arguments and build settings, split like a shell would")
    var xcargs: String?

    public init() {}

    public func run(in context: StepContext) async throws -> BuildToolReport {
        let step = Self.definition.id
        _ = try XcodebuildLocator.locate(pathVariable: context.environment["PATH"])
        var arguments = ["xcodebuild"]
        if target == nil || workspace != nil || project != nil {
            switch try ProjectDiscovery.container(workspace: workspace, project: project, in: context, step: step) {
            case .workspace(let path): arguments += ["-workspace", path]
            case .project(let path): arguments += ["-project", path]
            }
        }
        if let scheme { arguments += ["-scheme", scheme] }
        if let target { arguments += ["-target", target] }
        if let configuration { arguments += ["-configuration", configuration] }
        if let sdk { arguments += ["-sdk", sdk] }
        if let destination { arguments += ["-destination", destination] }
        if let archivePath { arguments += ["-archivePath", context.resolve(archivePath)] }
        if let derivedDataPath { arguments += ["-derivedDataPath", context.resolve(derivedDataPath)] }
        if let resultBundlePath { arguments += ["-resultBundlePath", context.resolve(resultBundlePath)] }
        if let xcconfig { arguments += ["-xcconfig", context.resolve(xcconfig)] }
        if let toolchain { arguments += ["-toolchain", toolchain] }
        arguments += try xcargs.map { try ShellWords.split($0) } ?? []
        let actions = [("clean", clean), ("analyze", analyze), ("build", build), ("archive", archive), ("test", test)].filter(\.1).map(\.0)
        guard !actions.isEmpty else { throw LanesError(.usage, "\(step): no action asked for", hint: "set build:, archive:, test:, clean: or analyze: to true") }
        if archive && scheme == nil { throw LanesError(.usage, "\(step): archive needs a scheme", hint: "pass scheme:") }
        arguments += actions
        let run = try await BuildToolRun(context: context, label: "xcodebuild").run(ToolInvocation(arguments))
        guard run.outcome.succeeded else {
            throw BuildToolFailure(tool: "xcodebuild \(actions.joined(separator: " "))", summary: run.summary, outcome: run.outcome, logPath: run.logPath)
        }
        return BuildToolReport(logPath: run.logPath, warningCount: run.summary.warningCount, archivePath: archive ? archivePath.map(context.resolve) : nil)
    }
}

/// What a tool run left: its log, its warnings, and the archive it made.
public struct BuildToolReport: Sendable, ReportableResult {
    public let logPath: String
    public let warningCount: Int
    public let archivePath: String?

    public var report: StepResultReport {
        StepResultReport(lines: ["log: \(logPath)", "warnings: \(warningCount)"] + (archivePath.map { ["archive: \($0)"] } ?? []),
                         json: .object([("log", .string(logPath)), ("warnings", .number(Double(warningCount))),
                                        ("archive", archivePath.map(JSONValue.string) ?? .null)]))
    }
}
