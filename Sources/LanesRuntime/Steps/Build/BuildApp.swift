import LanesBuild
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform

/// `build_app`: `xcodebuild archive`, then `-exportArchive` with an ExportOptions.plist made from the
/// export method and `exportOptions`; the .ipa and zipped dSYMs land in `outputDirectory`, and the
/// .ipa is checked (bundle identifier, embedded profile) before anything can ship it.
public struct BuildApp: Step {
    public typealias Output = BuiltApp

    public static let definition = StepDefinition(
        id: "build_app",
        summary: "Archive and export an app with xcodebuild, then check the .ipa",
        category: .build,
        examples: [
            StepExample(
                swift: """
                    try await buildApp(workspace: "Brewer.xcworkspace", scheme: "Brewer", clean: true, outputDirectory: "build",
                                       outputName: "Brewer.ipa", configuration: "Staging", exportMethod: .adHoc,
                                       exportOptions: ["signingStyle": "manual", "provisioningProfiles": ["works.sth.brewer.staging": "Brewer_Staging"]])
                    """,
                commandLine: ["workspace:Brewer.xcworkspace", "scheme:Brewer", "configuration:Staging", "export_method:ad-hoc",
                              "output_directory:build", "output_name:Brewer.ipa"]),
            StepExample(swift: #"try await buildApp(scheme: "Brewer", exportMethod: .appStore, project: "Brewer.xcodeproj", allowProvisioningUpdates: true)"#,
                        commandLine: ["project:Brewer.xcodeproj", "scheme:Brewer", "export_method:app-store-connect", "allow_provisioning_updates:true"],
                        environment: ["APP_STORE_CONNECT_API_KEY_PATH", "APP_STORE_CONNECT_API_KEY_ID", "APP_STORE_CONNECT_API_ISSUER_ID"]),
        ]
    )

    // The founding Fastfile's buildApp(workspace:scheme:clean:outputDirectory:outputName:configuration:silent:
    // exportMethod:exportOptions:sdk:) keeps its argument names and order.
    @StepOption("workspace", "The .xcworkspace (or give project)", env: "LANES_WORKSPACE")
    var workspace: String?
    @StepOption("scheme", "The scheme to archive", env: "LANES_SCHEME")
    var scheme: String
    @StepOption("clean", "Clean before archiving", default: false)
    var clean: Bool
    @StepOption("output_directory", "Where the .ipa and the dSYMs zip go", env: "LANES_OUTPUT_DIRECTORY", default: "build")
    var outputDirectory: String
    @StepOption("output_name", "The .ipa's name (default: the scheme)")
    var outputName: String?
    @StepOption("configuration", "The build configuration", env: "LANES_BUILD_CONFIGURATION")
    var configuration: String?
    @StepOption("silent", "Show only phases, errors and counts (the full log is always written)", default: true)
    var silent: Bool
    @StepOption("export_method", "app-store, ad-hoc, enterprise, development, developer-id (or Xcode 15.3+ names)",
                env: "LANES_EXPORT_METHOD")
    var exportMethod: ExportMethod
    @StepOption("export_options", "More ExportOptions.plist keys, such as signingStyle and provisioningProfiles", default: [:])
    var exportOptions: ExportOptions
    @StepOption("sdk", "The SDK, such as iphoneos")
    var sdk: String?
    @StepOption("project", "The .xcodeproj, when there is no workspace", env: "LANES_XCODEPROJ")
    var project: String?
    @StepOption("platform", "The generic/platform= destination of the archive", default: "iOS")
    var platform: String
    @StepOption("derived_data_path", "DerivedData folder (default .lanes/DerivedData)")
    var derivedDataPath: String?
    @StepOption("allow_provisioning_updates", "Let xcodebuild create or update profiles (with an App Store Connect key when set)", default: false)
    var allowProvisioningUpdates: Bool
    @StepOption("api_key_path", "App Store Connect API key (.p8) for -allowProvisioningUpdates", env: "APP_STORE_CONNECT_API_KEY_PATH")
    var apiKeyPath: String?
    @StepOption("api_key_id", "The key's id", env: "APP_STORE_CONNECT_API_KEY_ID")
    var apiKeyID: String?
    @StepOption("api_issuer_id", "The key's issuer id", env: "APP_STORE_CONNECT_API_ISSUER_ID")
    var apiIssuerID: String?
    @StepOption("app_identifier", "The bundle identifier the .ipa must have", env: "APP_IDENTIFIER")
    var appIdentifier: String?
    @StepOption("xcargs", "More xcodebuild arguments, split like a shell would (such as -skipMacroValidation)", env: "LANES_XCARGS")
    var xcargs: String?
    @StepOption("export_xcargs", "More arguments for xcodebuild -exportArchive")
    var exportXcargs: String?
    @StepOption("destination", "The -destination of the archive (default: generic/platform=PLATFORM)")
    var destination: String?
    @StepOption("skip_codesigning", "Build without signing (CODE_SIGNING_ALLOWED=NO); no export follows", default: false)
    var skipCodesigning: Bool
    @StepOption("skip_archive", "Only build (xcodebuild build): no archive, no export", default: false)
    var skipArchive: Bool
    @StepOption("skip_package_ipa", "Archive, but do not export (the .xcarchive is the result)", default: false)
    var skipPackageIPA: Bool
    @StepOption("export_options_plist", "An ExportOptions.plist to use as it is (instead of export_options)")
    var exportOptionsPlist: String?
    @StepOption("include_symbols", "Upload symbols with an App Store export (ExportOptions uploadSymbols)")
    var includeSymbols: Bool?
    @StepOption("include_bitcode", "Include bitcode (ExportOptions uploadBitcode; ignored by Xcode 14 and later)")
    var includeBitcode: Bool?
    @StepOption("archive_path", "Where the .xcarchive goes (default .lanes/build/SCHEME.xcarchive)")
    var archivePath: String?

    public init() {}

    public var banner: String { "Archive \(scheme)\(configuration.map { " (\($0))" } ?? "") and export \(exportMethod)" }

    public func run(in context: StepContext) async throws -> BuiltApp {
        _ = try XcodebuildLocator.locate(pathVariable: context.environment["PATH"])
        let signingSettings = skipCodesigning
            ? [BuildSettingOverride("CODE_SIGN_IDENTITY", ""), BuildSettingOverride("CODE_SIGNING_REQUIRED", "NO"),
               BuildSettingOverride("CODE_SIGNING_ALLOWED", "NO")]
            : []
        var options = exportOptions
        if let includeSymbols { options = options.adding("uploadSymbols", .bool(includeSymbols)) }
        if let includeBitcode { options = options.adding("uploadBitcode", .bool(includeBitcode)) }
        let plan = BuildAppPlan(
            root: context.projectDirectory, container: try XcodeContainer.chosen(workspace: workspace, project: project, in: context),
            scheme: scheme, configuration: configuration, sdk: sdk, platform: platform, clean: clean,
            outputDirectory: context.resolve(outputDirectory), outputName: outputName,
            exportMethod: ArchiveExportMethod(exportMethod), exportOptions: options,
            derivedDataPath: derivedDataPath.map(context.resolve), provisioningUpdates: try provisioningUpdates(context),
            buildSettings: signingSettings, destination: destination, extraArguments: try xcargs.map { try ShellWords.split($0) } ?? [],
            exportExtraArguments: try exportXcargs.map { try ShellWords.split($0, option: "export_xcargs") } ?? [],
            archivePath: archivePath.map(context.resolve), exportOptionsPlistFile: exportOptionsPlist.map(context.resolve))
        if let file = plan.exportOptionsPlistFile, !FilePath.exists(file) {
            throw LanesError(.configuration, "build_app: export_options_plist \(file) does not exist")
        }
        // The plist is checked and written before xcodebuild starts, so a bad key costs no archive.
        let plist = try plan.exportOptionsPlist()
        for path in plan.stalePaths { FilePath.removeTree(path) }
        try FilePath.makeDirectories(FilePath.directory(of: plan.exportOptionsPlistPath))
        try AtomicFile.write(plist, to: plan.exportOptionsPlistPath)

        if skipArchive {
            let build = try await BuildToolRun(context: context, label: "build_app-build", showsEveryLine: !silent).run(plan.buildCommand.toolInvocation)
            guard build.outcome.succeeded else {
                throw BuildToolFailure(tool: "xcodebuild build", summary: build.summary, outcome: build.outcome, logPath: build.logPath)
            }
            context.log.line("built \(scheme) without an archive (skip_archive)")
            return BuiltApp(path: nil, kind: nil, dSYMZipPath: nil, archivePath: nil, bundleIdentifier: nil, version: nil, build: nil,
                            logPaths: [build.logPath], warningCount: build.summary.warningCount)
        }
        let archive = try await BuildToolRun(context: context, label: "build_app-archive", showsEveryLine: !silent).run(plan.archiveCommand.toolInvocation)
        guard archive.outcome.succeeded else {
            throw BuildToolFailure(tool: "xcodebuild archive", summary: archive.summary, outcome: archive.outcome, logPath: archive.logPath)
        }
        // An unsigned archive cannot be exported; fastlane's skip_codesigning stops here as well.
        if skipPackageIPA || skipCodesigning {
            let dSYMs = try plan.zipDSYMs()
            context.log.line("archived \(plan.archivePath) (no export: \(skipPackageIPA ? "skip_package_ipa" : "skip_codesigning"))")
            return BuiltApp(path: nil, kind: nil, dSYMZipPath: dSYMs, archivePath: plan.archivePath, bundleIdentifier: nil, version: nil,
                            build: nil, logPaths: [archive.logPath], warningCount: archive.summary.warningCount)
        }
        let export = try await BuildToolRun(context: context, label: "build_app-export", showsEveryLine: !silent).run(plan.exportCommand.toolInvocation)
        guard export.outcome.succeeded else {
            throw BuildToolFailure(tool: "xcodebuild -exportArchive", summary: export.summary, outcome: export.outcome, logPath: export.logPath)
        }
        let outputs = try plan.collectOutputs()
        let logs = [archive.logPath, export.logPath]
        let warnings = archive.summary.warningCount + export.summary.warningCount
        guard outputs.product.kind.isIPA else {
            // A .pkg or a Developer ID .app is not an .ipa: check_ipa's checks do not apply.
            context.log.line("exported \(outputs.product.path)")
            let built = BuiltApp(path: outputs.product.path, kind: outputs.product.kind.rawValue, dSYMZipPath: outputs.dSYMZipPath,
                                 archivePath: plan.archivePath, bundleIdentifier: nil, version: nil, build: nil, logPaths: logs, warningCount: warnings)
            context.values[BuiltAppValue.self] = built
            return built
        }
        let inspection = try IPAInspector.inspect(path: outputs.ipaPath)
        let installedProfile = context.values[InstalledSigningProfile.self]
        if let expected = appIdentifier {
            try IPAInspector.check(inspection, appIdentifier: expected, profileUUID: installedProfile?.uuid, now: Date())
        }
        context.log.line("built \(outputs.ipaPath): \(inspection.bundleIdentifier) \(inspection.version ?? "?") (\(inspection.build ?? "?"))"
                         + (inspection.profile.map { ", profile \($0.name) (\($0.uuid))" } ?? ""))
        let built = BuiltApp(path: outputs.ipaPath, kind: BuildProduct.Kind.ipa.rawValue, dSYMZipPath: outputs.dSYMZipPath, archivePath: plan.archivePath,
                             bundleIdentifier: inspection.bundleIdentifier, version: inspection.version, build: inspection.build,
                             logPaths: logs, warningCount: warnings)
        context.values[BuiltAppValue.self] = built
        return built
    }

    private func provisioningUpdates(_ context: StepContext) throws -> ProvisioningUpdates {
        guard allowProvisioningUpdates else { return .disallowed }
        guard let apiKeyPath else {
            // A key set earlier in the lane by app_store_connect_api_key.
            guard let laneKey = try context.laneKeyForXcodebuild() else { return .allowed }
            return .allowedWithKey(LanesBuild.AppStoreConnectKey(keyPath: laneKey.path, keyID: laneKey.keyID, issuerID: laneKey.issuerID))
        }
        guard let apiKeyID, let apiIssuerID else {
            throw LanesError(.environment, "build_app: api_key_path is set but api_key_id or api_issuer_id is not",
                             hint: "set APP_STORE_CONNECT_API_KEY_ID and APP_STORE_CONNECT_API_ISSUER_ID")
        }
        return .allowedWithKey(AppStoreConnectKey(keyPath: context.resolve(apiKeyPath), keyID: apiKeyID, issuerID: apiIssuerID))
    }
}

/// What `build_app` made, for later steps (`upload`, `check_ipa`) and the lane. With `skip_archive`
/// only the logs are set; with `skip_package_ipa` or `skip_codesigning`, the archive but no product.
public struct BuiltApp: Sendable, ReportableResult {
    /// The exported product: an .ipa, or for macOS a .pkg (Mac App Store) or an .app (Developer ID).
    public let path: String?
    /// `ipa`, `pkg` or `app`.
    public let kind: String?
    public let dSYMZipPath: String?
    public let archivePath: String?
    /// Read from the .ipa (nil for macOS products and unexported builds).
    public let bundleIdentifier: String?
    public let version: String?
    public let build: String?
    public let logPaths: [String]
    public let warningCount: Int

    /// The .ipa, when the export made one.
    public var ipaPath: String? { kind == BuildProduct.Kind.ipa.rawValue ? path : nil }

    public var report: StepResultReport {
        StepResultReport(
            lines: ["\(kind ?? "product"): \(path ?? "(none)")", "archive: \(archivePath ?? "(none)")", "dSYMs: \(dSYMZipPath ?? "(none)")",
                    "bundle: \(bundleIdentifier ?? "?") \(version ?? "?") (\(build ?? "?"))",
                    "warnings: \(warningCount)"] + logPaths.map { "log: \($0)" },
            json: .object([("path", path.map(JSONValue.string) ?? .null), ("kind", kind.map(JSONValue.string) ?? .null),
                           ("ipa", ipaPath.map(JSONValue.string) ?? .null), ("archive", archivePath.map(JSONValue.string) ?? .null),
                           ("dsyms", dSYMZipPath.map(JSONValue.string) ?? .null),
                           ("bundle_identifier", bundleIdentifier.map(JSONValue.string) ?? .null), ("version", version.map(JSONValue.string) ?? .null),
                           ("build", build.map(JSONValue.string) ?? .null), ("warnings", .number(Double(warningCount))),
                           ("logs", .array(logPaths.map(JSONValue.string)))]))
    }
}

/// The app the lane built last.
public enum BuiltAppValue: LaneValueKey {
    public typealias Value = BuiltApp
}

extension XcodeContainer {
    /// The workspace or the project the caller named: exactly one of them.
    static func chosen(workspace: String?, project: String?, in context: StepContext) throws -> XcodeContainer {
        switch (workspace, project) {
        case (let workspace?, nil): .workspace(context.resolve(workspace))
        case (nil, let project?): .project(context.resolve(project))
        case (nil, nil): throw LanesError(.usage, "give workspace or project", hint: "workspace:Brewer.xcworkspace")
        case (_?, _?): throw LanesError(.usage, "give workspace or project, not both")
        }
    }
}

extension ArchiveExportMethod {
    /// Lanes' `ExportMethod` as the plist writes it (classic names; xcodebuild maps them).
    init(_ method: ExportMethod) {
        self = ArchiveExportMethod(name: method.rawValue) ?? .adHoc
    }
}

extension XcodebuildCommand {
    var toolInvocation: ToolInvocation { ToolInvocation(arguments) }
}
