import LanesBuild

/// Sentry's connection, shared by its release steps (sentry-fastlane-plugin's common options): the
/// token and organisation reach sentry-cli through its environment (SENTRY_AUTH_TOKEN, SENTRY_ORG,
/// SENTRY_PROJECT, SENTRY_URL), never its arguments.
public struct SentrySettings: StepOptionGroup {
    @StepOption("auth_token", "Sentry auth token", env: "SENTRY_AUTH_TOKEN", secret: true)
    var authToken: Secret
    @StepOption("org_slug", "The organisation", env: "SENTRY_ORG", fastlaneEnv: ["SENTRY_ORG_SLUG"])
    var orgSlug: String
    @StepOption("project_slug", "The project", env: "SENTRY_PROJECT", fastlaneEnv: ["SENTRY_PROJECT_SLUG"])
    var projectSlug: String
    @StepOption("url", "A self-hosted Sentry's URL", env: "SENTRY_URL")
    var url: String?
    @StepOption("sentry_cli_path", "The sentry-cli program", default: "sentry-cli")
    var sentryCLIPath: String

    public init() {}

    /// Runs `sentry-cli releases ARGUMENTS`.
    func releases(_ arguments: [String], step: String, context: StepContext) async throws {
        let program = try context.requireTool(context.resolveProgram(sentryCLIPath), step: step,
                                              hint: "brew install getsentry/tools/sentry-cli, or give sentry_cli_path")
        var environment = ["SENTRY_AUTH_TOKEN": authToken.value, "SENTRY_ORG": orgSlug, "SENTRY_PROJECT": projectSlug]
        if let url { environment["SENTRY_URL"] = url }
        try await context.runTool([program, "releases"] + arguments, label: step, tool: "sentry-cli releases \(arguments[0])", environment: environment)
    }

    /// The plugin's release name: `APP_IDENTIFIER@VERSION` when an app identifier is given.
    static func release(_ version: String, appIdentifier: String?) -> String {
        appIdentifier.map { "\($0)@\(version)" } ?? version
    }
}

/// `sentry_create_release` (sentry-fastlane-plugin): `sentry-cli releases new VERSION [--finalize]`.
public struct SentryCreateRelease: Step {
    public static let definition = StepDefinition(
        id: "sentry_create_release",
        summary: "Create a Sentry release (sentry-cli releases new)",
        category: .upload,
        examples: [StepExample(swift: #"try await sentryCreateRelease(orgSlug: "sth", projectSlug: "brewer", version: "1.4.0", appIdentifier: "works.sth.brewer")"#,
                               commandLine: ["org_slug:sth", "project_slug:brewer", "version:1.4.0", "app_identifier:works.sth.brewer"],
                               environment: ["SENTRY_AUTH_TOKEN"])]
    )

    var sentry = SentrySettings()
    @StepOption("version", "The release's version")
    var version: String
    @StepOption("app_identifier", "Prepended to the version as APP_IDENTIFIER@VERSION", env: "SENTRY_APP_IDENTIFIER")
    var appIdentifier: String?
    @StepOption("finalize", "Finalize the release at once (--finalize)", default: false)
    var finalize: Bool

    public init() {}

    public func run(in context: StepContext) async throws {
        let release = SentrySettings.release(version, appIdentifier: appIdentifier)
        try await sentry.releases(["new", release] + (finalize ? ["--finalize"] : []), step: Self.definition.id, context: context)
        context.log.line("created release \(release)")
    }
}

/// `sentry_set_commits` (sentry-fastlane-plugin): `sentry-cli releases set-commits VERSION`.
public struct SentrySetCommits: Step {
    public static let definition = StepDefinition(
        id: "sentry_set_commits",
        summary: "Associate commits with a Sentry release (sentry-cli releases set-commits)",
        category: .upload,
        examples: [StepExample(swift: #"try await sentrySetCommits(orgSlug: "sth", projectSlug: "brewer", version: "1.4.0", auto: true)"#,
                               commandLine: ["org_slug:sth", "project_slug:brewer", "version:1.4.0", "auto:true"],
                               environment: ["SENTRY_AUTH_TOKEN"])]
    )

    var sentry = SentrySettings()
    @StepOption("version", "The release's version")
    var version: String
    @StepOption("app_identifier", "Prepended to the version as APP_IDENTIFIER@VERSION", env: "SENTRY_APP_IDENTIFIER")
    var appIdentifier: String?
    @StepOption("auto", "Let sentry-cli find the commits (--auto)", default: false)
    var auto: Bool
    @StepOption("clear", "Clear the release's commits (--clear)", default: false)
    var clear: Bool
    @StepOption("commit", "A commit spec, such as org/repo@from..to (--commit)")
    var commit: String?
    @StepOption("ignore_missing", "Go on when the previous release's commit is gone (--ignore-missing)", default: false)
    var ignoreMissing: Bool

    public init() {}

    public func run(in context: StepContext) async throws {
        let release = SentrySettings.release(version, appIdentifier: appIdentifier)
        var arguments = ["set-commits", release]
        if auto { arguments.append("--auto") }
        if clear { arguments.append("--clear") }
        if let commit { arguments += ["--commit", commit] }
        if ignoreMissing { arguments.append("--ignore-missing") }
        try await sentry.releases(arguments, step: Self.definition.id, context: context)
        context.log.line("set the commits of release \(release)")
    }
}

/// `sentry_finalize_release` (sentry-fastlane-plugin): `sentry-cli releases finalize VERSION`.
public struct SentryFinalizeRelease: Step {
    public static let definition = StepDefinition(
        id: "sentry_finalize_release",
        summary: "Finalize a Sentry release (sentry-cli releases finalize)",
        category: .upload,
        examples: [StepExample(swift: #"try await sentryFinalizeRelease(orgSlug: "sth", projectSlug: "brewer", version: "1.4.0")"#,
                               commandLine: ["org_slug:sth", "project_slug:brewer", "version:1.4.0"], environment: ["SENTRY_AUTH_TOKEN"])]
    )

    var sentry = SentrySettings()
    @StepOption("version", "The release's version")
    var version: String
    @StepOption("app_identifier", "Prepended to the version as APP_IDENTIFIER@VERSION", env: "SENTRY_APP_IDENTIFIER")
    var appIdentifier: String?

    public init() {}

    public func run(in context: StepContext) async throws {
        let release = SentrySettings.release(version, appIdentifier: appIdentifier)
        try await sentry.releases(["finalize", release], step: Self.definition.id, context: context)
        context.log.line("finalized release \(release)")
    }
}
