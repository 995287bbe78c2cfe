import Lanes

/// Uploads debug symbols to Sentry with `sentry-cli`, as fastlane's `sentry_upload_dsym` does. The
/// auth token is a secret: it reaches `sentry-cli` through its environment (SENTRY_AUTH_TOKEN), never
/// its arguments, and lanes masks it in every output.
public struct SentryUploadDSYM: Step {
    public static let definition = StepDefinition(
        id: "sentry_upload_dsym", summary: "Upload dSYM files to Sentry with sentry-cli", category: .upload,
        examples: [StepExample(swift: #"try await sentryUploadDSYM(path: "build/Brewer.app.dSYM.zip", org: "brewer", project: "ios")"#,
                               commandLine: ["path:build/Brewer.app.dSYM.zip", "org:brewer", "project:ios"],
                               environment: ["SENTRY_AUTH_TOKEN"])])

    @StepOption("path", "The .dSYM folder or zip to upload", env: "SENTRY_DSYM_PATH")
    var path: String

    @StepOption("org", "The Sentry organization slug", env: "SENTRY_ORG")
    var org: String

    @StepOption("project", "The Sentry project slug", env: "SENTRY_PROJECT")
    var project: String

    @StepOption("auth_token", "Sentry auth token", env: "SENTRY_AUTH_TOKEN", secret: true)
    var authToken: String

    @StepOption("url", "The Sentry server, for self-hosted Sentry", env: "SENTRY_URL")
    var url: String?

    @StepOption("cli", "The sentry-cli program", env: "SENTRY_CLI")
    var cli: String?

    public init() {}

    public var banner: String { "Uploading \(path) to Sentry (\(org)/\(project))" }

    public func run(in context: StepContext) async throws {
        var environment = ["SENTRY_AUTH_TOKEN": authToken]
        if let url { environment["SENTRY_URL"] = url }
        let outcome = try await context.processes.run(
            ProcessRequest([cli ?? "sentry-cli", "debug-files", "upload", "--org", org, "--project", project, context.resolve(path)],
                           environment: environment, workingDirectory: context.projectDirectory)
        ) { line in context.log.line(line) }
        guard outcome.succeeded else {
            throw LanesError(.laneFailure, "sentry_upload_dsym: sentry-cli failed (\(outcome.termination))")
        }
    }
}

/// `sentry_upload_dsym` in a lane.
public func sentryUploadDSYM(path: String? = nil, org: String? = nil, project: String? = nil,
                             url: String? = nil, cli: String? = nil) async throws {
    try await runStep(SentryUploadDSYM.self, ["path": path, "org": org, "project": project, "url": url, "cli": cli])
}

/// The steps of this package, for `Lanefile(steps: SentrySteps.steps) { ... }`.
public let steps: [any Step.Type] = [SentryUploadDSYM.self]

/// A lane to share: teams include it in their Lanefile (`Lanefile { SentrySteps.lanes ... }`).
public let lanes = Lanefile(steps: steps) {
    Lane("upload_symbols", "Upload the dSYMs of the last build to Sentry") { _ in
        try await sentryUploadDSYM()
    }
}
