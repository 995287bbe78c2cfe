import LanesBuild
internal import Foundation
internal import LanesPlatform

/// `notarize`: submits an app, package or disk image to Apple's notary service with notarytool and
/// waits, then staples the ticket. Xcode's tools exist only on macOS: elsewhere it fails at once.
public struct Notarize: Step {
    public static let definition = StepDefinition(
        id: "notarize",
        summary: "Notarize an .app, .pkg, .dmg or .zip with notarytool (App Store Connect API key), then staple it",
        category: .signing,
        examples: [StepExample(swift: #"try await notarize(package: "build/Meow.app")"#, commandLine: ["package:build/Meow.app"],
                               environment: ["APP_STORE_CONNECT_API_KEY_PATH", "APP_STORE_CONNECT_API_KEY_ID", "APP_STORE_CONNECT_API_ISSUER_ID"])]
    )

    @StepOption("package", "The .app, .pkg, .dmg or .zip (default: what build_app exported in this lane)")
    var package: String?
    @StepOption("api_key_path", "App Store Connect API key (.p8)", env: "APP_STORE_CONNECT_API_KEY_PATH")
    var apiKeyPath: String
    @StepOption("api_key_id", "The key's id", env: "APP_STORE_CONNECT_API_KEY_ID")
    var apiKeyID: String
    @StepOption("api_issuer_id", "The key's issuer id", env: "APP_STORE_CONNECT_API_ISSUER_ID")
    var apiIssuerID: String
    @StepOption("bundle_id", "Unused by notarytool; accepted for fastlane's Fastfiles")
    var bundleID: String?
    @StepOption("skip_stapling", "Do not staple the ticket", default: false)
    var skipStapling: Bool

    public init() {}

    public func run(in context: StepContext) async throws {
        let xcrun = try context.requireTool("xcrun", step: "notarize", hint: "notarization needs Xcode's notarytool on macOS")
        guard let target = package.map(context.resolve) ?? context.values[BuiltAppValue.self]?.path else {
            throw LanesError(.usage, "notarize: no package given and build_app exported nothing in this lane")
        }
        // notarytool takes archives, not bundles: an .app goes up zipped, then the .app is stapled.
        var submitted = target
        if target.hasSuffix(".app") {
            submitted = LanesBuildFolders.build(root: context.projectDirectory) + "/" + FilePath.name(of: target) + ".notarize.zip"
            try FilePath.makeDirectories(FilePath.directory(of: submitted))
            try ZipWriter.zip(folder: target, rootName: FilePath.name(of: target), to: submitted)
        }
        let last = try await context.runTool(
            [xcrun, "notarytool", "submit", submitted, "--key", context.resolve(apiKeyPath), "--key-id", apiKeyID,
             "--issuer", apiIssuerID, "--wait", "--output-format", "json"],
            label: "notarize", tool: "notarytool submit")
        let status = last.flatMap { try? JSONSerialization.jsonObject(with: Data($0.utf8)) as? [String: Any] }?["status"] as? String
        guard status == "Accepted" else {
            throw LanesError(.laneFailure, "notarize: Apple's notary service answered \(status ?? "nothing readable") for \(submitted)",
                             hint: "xcrun notarytool log SUBMISSION_ID --key ... shows why")
        }
        if !skipStapling {
            try await context.runTool([xcrun, "stapler", "staple", target], label: "notarize-staple", tool: "stapler staple")
        }
        context.log.line("notarized \(target)")
    }
}

/// `upload_symbols_to_crashlytics`: the dSYMs to Firebase Crashlytics with Google's upload-symbols tool.
public struct UploadSymbolsToCrashlytics: Step {
    public static let definition = StepDefinition(
        id: "upload_symbols_to_crashlytics",
        summary: "Upload dSYMs to Firebase Crashlytics with upload-symbols (default: build_app's dSYM zip and what download_dsyms wrote)",
        category: .upload,
        examples: [StepExample(swift: #"try await uploadSymbolsToCrashlytics(gspPath: "Brewer/GoogleService-Info.plist")"#,
                               commandLine: ["gsp_path:Brewer/GoogleService-Info.plist", "dsym_path:build/Brewer.app.dSYM.zip"])]
    )

    @StepOption("dsym_path", "The dSYM zip or folder (default: what build_app made in this lane); download_dsyms' zips are uploaded too")
    var dsymPath: String?
    @StepOption("gsp_path", "GoogleService-Info.plist")
    var gspPath: String
    @StepOption("platform", "ios, mac, tvos", default: "ios")
    var platform: String
    @StepOption("binary_path", "The upload-symbols program", default: "upload-symbols")
    var binaryPath: String

    public init() {}

    public func run(in context: StepContext) async throws {
        let program = try context.requireTool(context.resolveProgram(binaryPath), step: "upload_symbols_to_crashlytics",
                                              hint: "upload-symbols comes with the FirebaseCrashlytics package; give binary_path")
        // fastlane's action: dsym_path (gym's DSYM_OUTPUT_PATH by default) and download_dsyms' DSYM_PATHS, each once.
        var dsyms: [String] = []
        for path in [dsymPath.map(context.resolve) ?? context.values[BuiltAppValue.self]?.dSYMZipPath].compactMap({ $0 })
            + (context.values[DownloadedDSYMPaths.self] ?? []) where !dsyms.contains(path) {
            dsyms.append(path)
        }
        guard !dsyms.isEmpty else {
            throw LanesError(.usage, "upload_symbols_to_crashlytics: no dsym_path given, and neither build_app nor download_dsyms left a dSYM in this lane")
        }
        for dsym in dsyms {
            try await context.runTool([program, "-gsp", context.resolve(gspPath), "-p", platform, dsym],
                                      label: "crashlytics-symbols", tool: "upload-symbols")
        }
    }
}

/// `sentry_upload_dsym`: dSYMs to Sentry with sentry-cli; the token travels in the environment only.
public struct SentryUploadDSYM: Step {
    public static let definition = StepDefinition(
        id: "sentry_upload_dsym",
        summary: "Upload dSYMs to Sentry with sentry-cli debug-files upload (token through SENTRY_AUTH_TOKEN, never argv)",
        category: .upload,
        examples: [StepExample(swift: #"try await sentryUploadDsym(orgSlug: "sth", projectSlug: "brewer")"#,
                               commandLine: ["org_slug:sth", "project_slug:brewer", "dsym_path:build/Brewer.app.dSYM.zip"],
                               environment: ["SENTRY_AUTH_TOKEN"])]
    )

    @StepOption("dsym_path", "The dSYM zip or folder (default: what build_app made in this lane, else what download_dsyms wrote)")
    var dsymPath: String?
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

    public func run(in context: StepContext) async throws {
        let program = try context.requireTool(context.resolveProgram(sentryCLIPath), step: "sentry_upload_dsym",
                                              hint: "brew install getsentry/tools/sentry-cli, or give sentry_cli_path")
        // The plugin's default: gym's DSYM_OUTPUT_PATH, else download_dsyms' DSYM_PATHS.
        let dsyms = dsymPath.map { [context.resolve($0)] } ?? context.values[BuiltAppValue.self]?.dSYMZipPath.map { [$0] }
            ?? context.values[DownloadedDSYMPaths.self] ?? []
        guard !dsyms.isEmpty else {
            throw LanesError(.usage, "sentry_upload_dsym: no dsym_path given, and neither build_app nor download_dsyms left a dSYM in this lane")
        }
        var environment = ["SENTRY_AUTH_TOKEN": authToken.value]
        if let url { environment["SENTRY_URL"] = url }
        try await context.runTool([program, "debug-files", "upload", "--org", orgSlug, "--project", projectSlug] + dsyms,
                                  label: "sentry-dsyms", tool: "sentry-cli debug-files upload", environment: environment)
    }
}

extension StepContext {
    /// A program option: a bare name is looked up on PATH, anything with a slash is a path.
    func resolveProgram(_ program: String) -> String {
        program.contains("/") ? resolve(program) : program
    }
}
