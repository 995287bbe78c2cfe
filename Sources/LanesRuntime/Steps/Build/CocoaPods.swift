import LanesBuild
internal import LanesPlatform

/// `cocoapods`: `pod install` (`--deployment` when Podfile.lock exists, so the lock is obeyed); a
/// folder without a Podfile is skipped with a message, as fastlane's users run it before every lane.
public struct CocoaPods: Step {
    public static let definition = StepDefinition(
        id: "cocoapods",
        summary: "Install CocoaPods dependencies (pod install); skipped when there is no Podfile",
        category: .build,
        examples: [StepExample(swift: "try await cocoapods()", commandLine: []),
                   StepExample(swift: #"try await cocoapods(podfileDirectory: "ios", repoUpdate: true)"#,
                               commandLine: ["podfile_directory:ios", "repo_update:true"])]
    )

    @StepOption("podfile_directory", "The folder holding the Podfile", default: ".")
    var podfileDirectory: String
    @StepOption("repo_update", "Update the spec repositories first (pod install --repo-update)", default: false)
    var repoUpdate: Bool

    public init() {}

    public func run(in context: StepContext) async throws {
        let folder = context.resolve(podfileDirectory)
        let plan = CocoaPodsPlan.decide(projectDirectory: folder, podfileExists: FilePath.exists(folder + "/Podfile"),
                                        lockfileExists: FilePath.exists(folder + "/Podfile.lock"), repoUpdate: repoUpdate)
        switch plan {
        case .skip(let reason):
            context.log.line("skipped: \(reason)")
        case .install(let invocation):
            guard FilePath.which("pod", path: context.environment["PATH"]) != nil else {
                throw LanesError(.environment, "cocoapods: there is a Podfile in \(folder) but no `pod` on PATH",
                                 hint: "gem install cocoapods, or bundle exec lanes ...")
            }
            let run = try await BuildToolRun(context: context, label: "cocoapods").run(invocation)
            guard run.outcome.succeeded else {
                throw BuildToolFailure(tool: "pod install", summary: run.summary, outcome: run.outcome, logPath: run.logPath)
            }
        }
    }
}

/// `swift_package_resolve`: `swift package resolve`, so a later build does not fetch.
public struct SwiftPackageResolve: Step {
    public static let definition = StepDefinition(
        id: "swift_package_resolve",
        summary: "Resolve a Swift package's dependencies (swift package resolve)",
        category: .build,
        examples: [StepExample(swift: #"try await swiftPackageResolve(packagePath: "Example/Brewer")"#,
                               commandLine: ["package_path:Example/Brewer"])]
    )

    @StepOption("package_path", "The package folder", default: ".")
    var packagePath: String

    public init() {}

    public func run(in context: StepContext) async throws {
        let run = try await BuildToolRun(context: context, label: "swift_package_resolve")
            .run(SwiftPackageCommand.resolve(packagePath: context.resolve(packagePath)))
        guard run.outcome.succeeded else {
            throw BuildToolFailure(tool: "swift package resolve", summary: run.summary, outcome: run.outcome, logPath: run.logPath)
        }
    }
}
