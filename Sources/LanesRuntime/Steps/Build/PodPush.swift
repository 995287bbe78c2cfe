import LanesBuild
internal import LanesPlatform

/// `pod_push`: `pod trunk push` (or `pod repo push REPO`) of a podspec, with fastlane's flags, through
/// `bundle exec` when asked and the folder has a Gemfile, as fastlane's action runs it.
public struct PodPush: Step {
    public static let definition = StepDefinition(
        id: "pod_push",
        summary: "Push a podspec to CocoaPods trunk or a private spec repository (pod trunk push / pod repo push)",
        category: .build,
        examples: [StepExample(swift: #"try await podPush(path: "Brewer.podspec", allowWarnings: true)"#,
                               commandLine: ["path:Brewer.podspec", "allow_warnings:true"]),
                   StepExample(swift: #"try await podPush(useBundleExec: true, repo: "brewer-specs")"#,
                               commandLine: ["repo:brewer-specs", "use_bundle_exec:true"])]
    )

    @StepOption("use_bundle_exec", "Run it through bundle exec when the folder has a Gemfile", fastlaneEnv: ["FL_POD_PUSH_USE_BUNDLE_EXEC"],
                default: false)
    var useBundleExec: Bool
    @StepOption("path", "The podspec to push (.podspec or .podspec.json); default: pod's own choice in the folder",
                fastlaneEnv: ["FL_POD_PUSH_PATH"])
    var path: String?
    @StepOption("repo", "The spec repository to push to (pod repo push REPO); default: trunk", fastlaneEnv: ["FL_POD_PUSH_REPO"])
    var repo: String?
    @StepOption("allow_warnings", "--allow-warnings", fastlaneEnv: ["FL_POD_PUSH_ALLOW_WARNINGS"], default: false)
    var allowWarnings: Bool
    @StepOption("use_libraries", "--use-libraries", fastlaneEnv: ["FL_POD_PUSH_USE_LIBRARIES"], default: false)
    var useLibraries: Bool
    @StepOption("sources", "Spec repositories to lint with (--sources=a,b)", fastlaneEnv: ["FL_POD_PUSH_SOURCES"], default: [])
    var sources: [String]
    @StepOption("swift_version", "--swift-version=VERSION", fastlaneEnv: ["FL_POD_PUSH_SWIFT_VERSION"])
    var swiftVersion: String?
    @StepOption("skip_import_validation", "--skip-import-validation", fastlaneEnv: ["FL_POD_PUSH_SKIP_IMPORT_VALIDATION"], default: false)
    var skipImportValidation: Bool
    @StepOption("skip_tests", "--skip-tests", fastlaneEnv: ["FL_POD_PUSH_SKIP_TESTS"], default: false)
    var skipTests: Bool
    @StepOption("use_json", "--use-json", fastlaneEnv: ["FL_POD_PUSH_USE_JSON"], default: false)
    var useJSON: Bool
    @StepOption("verbose", "--verbose", fastlaneEnv: ["FL_POD_PUSH_VERBOSE"], default: false)
    var verbose: Bool
    @StepOption("use_modular_headers", "--use-modular-headers", fastlaneEnv: ["FL_POD_PUSH_USE_MODULAR_HEADERS"], default: false)
    var useModularHeaders: Bool
    @StepOption("synchronous", "--synchronous", fastlaneEnv: ["FL_POD_PUSH_SYNCHRONOUS"], default: false)
    var synchronous: Bool
    @StepOption("no_overwrite", "--no-overwrite", fastlaneEnv: ["FL_POD_PUSH_NO_OVERWRITE"], default: false)
    var noOverwrite: Bool
    @StepOption("local_only", "--local-only", fastlaneEnv: ["FL_POD_PUSH_LOCAL_ONLY"], default: false)
    var localOnly: Bool

    public init() {}

    public func run(in context: StepContext) async throws {
        if let path {
            // fastlane's option check, before anything runs.
            guard FilePath.exists(context.resolve(path)) else {
                throw LanesError(.configuration, "pod_push: couldn't find file at path '\(path)'", hint: "path is relative to the Lanefile's folder")
            }
            guard path.hasSuffix(".podspec") || path.hasSuffix(".podspec.json") else {
                throw LanesError(.configuration, "pod_push: path must be a .podspec or .podspec.json (\(path))")
            }
        }
        let arguments = Self.arguments(self, bundleExec: useBundleExec && FilePath.exists(context.resolve("Gemfile")))
        let program = try context.requireTool(arguments[0], step: "pod_push",
                                              hint: arguments[0] == "bundle" ? "gem install bundler" : "gem install cocoapods")
        try await context.runTool([program] + arguments.dropFirst(), label: "pod_push", tool: arguments.prefix(3).joined(separator: " "))
    }

    /// The command fastlane's action builds, as argv.
    static func arguments(_ step: PodPush, bundleExec: Bool) -> [String] {
        var command = bundleExec ? ["bundle", "exec"] : []
        command += step.repo.map { ["pod", "repo", "push", $0] } ?? ["pod", "trunk", "push"]
        if let path = step.path { command.append(path) }
        if !step.sources.isEmpty { command.append("--sources=" + step.sources.joined(separator: ",")) }
        if let swiftVersion = step.swiftVersion { command.append("--swift-version=" + swiftVersion) }
        let flags: [(Bool, String)] = [(step.allowWarnings, "--allow-warnings"), (step.useLibraries, "--use-libraries"),
                                       (step.skipImportValidation, "--skip-import-validation"), (step.skipTests, "--skip-tests"),
                                       (step.useJSON, "--use-json"), (step.verbose, "--verbose"), (step.useModularHeaders, "--use-modular-headers"),
                                       (step.synchronous, "--synchronous"), (step.noOverwrite, "--no-overwrite"), (step.localOnly, "--local-only")]
        return command + flags.filter(\.0).map(\.1)
    }
}
