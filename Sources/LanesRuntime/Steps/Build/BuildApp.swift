import LanesBuild
// PropertyListSerialization (an archive's Info.plist) is Foundation's.
internal import Foundation
internal import LanesPlatform

/// `build_app` (fastlane's gym, build_ios_app, build_mac_app): `xcodebuild archive`, then
/// `-exportArchive` with an ExportOptions.plist, the product and zipped dSYMs in `output_directory`,
/// and an .ipa checked (bundle identifier, embedded profile) before anything can ship it.
///
/// Left to its defaults it does what gym does (gym/lib/gym/detect_values.rb,
/// generators/package_command_generator_xcode7.rb, fastlane/actions/build_app.rb): the one workspace,
/// else the one project, of the Lanefile's folder; the only shared scheme; a `generic/platform=`
/// destination for the scheme's platform (tvOS, visionOS, iOS, then macOS); the export method of the
/// profiles match or get_provisioning_profile installed, else `export_options`' `method`, else the
/// lane's Configuration's, else `app-store`; `provisioningProfiles` from those profiles, with
/// `signingStyle` manual when there are any; `uploadSymbols` on for App Store exports.
public struct BuildApp: Step {
    public typealias Output = BuiltApp

    public static let definition = StepDefinition(
        id: "build_app",
        summary: "Archive and export an app with xcodebuild (gym), then check the .ipa",
        category: .build,
        examples: [
            StepExample(swift: #"try await buildApp(scheme: "Brewer")"#, commandLine: ["scheme:Brewer"]),
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
            StepExample(swift: #"try await buildApp(exportOptions: "ExportOptions.plist")"#, commandLine: ["export_options:ExportOptions.plist"]),
        ],
        aliases: ["gym", "build_ios_app", "build_mac_app"],
        aliasArguments: ["build_mac_app": ["catalyst_platform": "macos"]],
        ignoredOptions: [
            "suppress_xcode_output": "lanes shows phases and errors, and keeps the full log under .lanes/logs (silent: false shows every line)",
            "xcodebuild_formatter": "lanes summarises xcodebuild's output itself; the raw log is kept under .lanes/logs",
            "disable_xcpretty": "lanes does not pipe xcodebuild through xcpretty",
            "xcpretty_test_format": "lanes does not pipe xcodebuild through xcpretty",
            "xcpretty_formatter": "lanes does not pipe xcodebuild through xcpretty",
            "xcpretty_utf": "lanes does not pipe xcodebuild through xcpretty",
            "result_bundle": "lanes always keeps the archive's result bundle (result_bundle_path says where)",
            "skip_profile_detection": "lanes maps profiles only from what the lane installed and export_options",
        ]
    )

    // The founding Fastfile's buildApp(workspace:scheme:clean:outputDirectory:outputName:configuration:silent:
    // exportMethod:exportOptions:sdk:) keeps its argument names and order.
    @StepOption("workspace", "The .xcworkspace (default: the only one in the Lanefile's folder)", env: "LANES_WORKSPACE", fastlaneEnv: ["GYM_WORKSPACE"])
    var workspace: String?
    @StepOption("scheme", "The scheme to archive (default: the only shared scheme)", env: "LANES_SCHEME", fastlaneEnv: ["GYM_SCHEME"])
    var scheme: String?
    @StepOption("clean", "Clean before archiving", fastlaneEnv: ["GYM_CLEAN"], default: false)
    var clean: Bool
    @StepOption("output_directory", "Where the product and the dSYMs zip go", env: "LANES_OUTPUT_DIRECTORY", fastlaneEnv: ["GYM_OUTPUT_DIRECTORY"],
                default: ".")
    var outputDirectory: String
    @StepOption("output_name", "The product's name (default: the archived app's, as gym names it)", fastlaneEnv: ["GYM_OUTPUT_NAME"])
    var outputName: String?
    @StepOption("configuration", "The build configuration (default: the lane's Configuration's, else the scheme's archive configuration)",
                env: "LANES_BUILD_CONFIGURATION", fastlaneEnv: ["GYM_CONFIGURATION"])
    var configuration: String?
    @StepOption("silent", "Show only phases, errors and counts (the full log is always written)", fastlaneEnv: ["GYM_SILENT"], default: true)
    var silent: Bool
    @StepOption("export_method", "app-store, ad-hoc, enterprise, development, developer-id, mac-application (or Xcode 15.3+ names); default: see above",
                env: "LANES_EXPORT_METHOD", fastlaneEnv: ["GYM_EXPORT_METHOD"])
    var exportMethod: ExportMethod?
    @StepOption("export_options", "ExportOptions.plist keys (signingStyle, provisioningProfiles, method...), or the path of an ExportOptions.plist",
                fastlaneEnv: ["GYM_EXPORT_OPTIONS"])
    var exportOptions: ExportOptionsSource?
    @StepOption("sdk", "The SDK, such as iphoneos", fastlaneEnv: ["GYM_SDK"])
    var sdk: String?
    @StepOption("project", "The .xcodeproj, when there is no workspace (default: the only one in the Lanefile's folder)", env: "LANES_XCODEPROJ",
                fastlaneEnv: ["GYM_PROJECT"])
    var project: String?
    @StepOption("platform", "The generic/platform= of the archive (default: the scheme's platform, read from the project)")
    var platform: String?
    @StepOption("catalyst_platform", "ios or macos: which platform a Mac Catalyst app is archived for (build_mac_app: macos)",
                fastlaneEnv: ["GYM_CATALYST_PLATFORM"])
    var catalystPlatform: String?
    @StepOption("derived_data_path", "DerivedData folder (default .lanes/DerivedData)", fastlaneEnv: ["GYM_DERIVED_DATA_PATH"])
    var derivedDataPath: String?
    @StepOption("allow_provisioning_updates", "Let xcodebuild create or update profiles (with an App Store Connect key when set)", default: false)
    var allowProvisioningUpdates: Bool
    @StepOption("api_key_path", "App Store Connect API key (.p8) for -allowProvisioningUpdates", env: "APP_STORE_CONNECT_API_KEY_PATH")
    var apiKeyPath: String?
    @StepOption("api_key_id", "The key's id", env: "APP_STORE_CONNECT_API_KEY_ID")
    var apiKeyID: String?
    @StepOption("api_issuer_id", "The key's issuer id", env: "APP_STORE_CONNECT_API_ISSUER_ID")
    var apiIssuerID: String?
    @StepOption("app_identifier", "The bundle identifier the .ipa must have (default: the lane's Configuration's)", env: "APP_IDENTIFIER",
                appfile: .appIdentifier)
    var appIdentifier: String?
    @StepOption("xcargs", "More xcodebuild arguments, split like a shell would (such as -skipMacroValidation)", env: "LANES_XCARGS",
                fastlaneEnv: ["GYM_XCARGS"])
    var xcargs: String?
    @StepOption("export_xcargs", "More arguments for xcodebuild -exportArchive", fastlaneEnv: ["GYM_EXPORT_XCARGS"])
    var exportXcargs: String?
    @StepOption("destination", "The -destination of the archive (default: generic/platform=PLATFORM)", fastlaneEnv: ["GYM_DESTINATION"])
    var destination: String?
    @StepOption("skip_codesigning", "Build without signing (CODE_SIGNING_ALLOWED=NO); no export follows", fastlaneEnv: ["GYM_SKIP_CODESIGNING"],
                default: false)
    var skipCodesigning: Bool
    @StepOption("skip_archive", "Only build (xcodebuild build): no archive, no export", fastlaneEnv: ["GYM_SKIP_ARCHIVE"], default: false)
    var skipArchive: Bool
    @StepOption("skip_package_ipa", "Archive, but do not export (the .xcarchive is the result)",
                fastlaneEnv: ["GYM_SKIP_PACKAGE_IPA", "GYM_SKIP_PACKAGE_PKG"], default: false, aliases: ["skip_package_pkg"])
    var skipPackageIPA: Bool
    @StepOption("skip_build_archive", "Export the archive at archive_path made earlier, without building", fastlaneEnv: ["GYM_SKIP_BUILD_ARCHIVE"],
                default: false)
    var skipBuildArchive: Bool
    @StepOption("export_options_plist", "An ExportOptions.plist to use as it is (instead of export_options)")
    var exportOptionsPlist: String?
    @StepOption("include_symbols", "Upload symbols with an App Store export (uploadSymbols; default on unless export_options says)",
                fastlaneEnv: ["GYM_INCLUDE_SYMBOLS"])
    var includeSymbols: Bool?
    @StepOption("include_bitcode", "Include bitcode (uploadBitcode; ignored by Xcode 14 and later)", fastlaneEnv: ["GYM_INCLUDE_BITCODE"])
    var includeBitcode: Bool?
    @StepOption("archive_path", "Where the .xcarchive goes (default .lanes/build/SCHEME.xcarchive, or in build_path)", fastlaneEnv: ["GYM_ARCHIVE_PATH"])
    var archivePath: String?
    @StepOption("build_path", "The folder the archive goes in (as NAME DATE.xcarchive)", fastlaneEnv: ["GYM_BUILD_PATH"])
    var buildPath: String?
    @StepOption("result_bundle_path", "Where the archive's .xcresult goes", fastlaneEnv: ["GYM_RESULT_BUNDLE_PATH"])
    var resultBundlePath: String?
    @StepOption("codesigning_identity", "CODE_SIGN_IDENTITY for the archive", fastlaneEnv: ["GYM_CODE_SIGNING_IDENTITY"])
    var codesigningIdentity: String?
    @StepOption("export_team_id", "teamID of the export", fastlaneEnv: ["GYM_EXPORT_TEAM_ID"])
    var exportTeamID: String?
    @StepOption("installer_cert_name", "installerSigningCertificate of a macOS export", fastlaneEnv: ["GYM_INSTALLER_CERT_NAME"])
    var installerCertName: String?
    @StepOption("toolchain", "The toolchain (-toolchain)", fastlaneEnv: ["GYM_TOOLCHAIN"])
    var toolchain: String?
    @StepOption("xcconfig", "An .xcconfig to build with (-xcconfig)", fastlaneEnv: ["GYM_XCCONFIG"])
    var xcconfig: String?
    @StepOption("build_timing_summary", "Ask for xcodebuild's build timing summary (-showBuildTimingSummary)", fastlaneEnv: ["GYM_BUILD_TIMING_SUMMARY"],
                default: false)
    var buildTimingSummary: Bool
    @StepOption("cloned_source_packages_path", "Where Swift packages are cloned (-clonedSourcePackagesDirPath)",
                fastlaneEnv: ["GYM_CLONED_SOURCE_PACKAGES_PATH"])
    var clonedSourcePackagesPath: String?
    @StepOption("package_cache_path", "Swift package cache (-packageCachePath)", fastlaneEnv: ["GYM_PACKAGE_CACHE_PATH"])
    var packageCachePath: String?
    @StepOption("disable_package_automatic_updates", "Keep Package.resolved as it is (-disableAutomaticPackageResolution)",
                fastlaneEnv: ["GYM_DISABLE_PACKAGE_AUTOMATIC_UPDATES"], default: false)
    var disablePackageAutomaticUpdates: Bool
    @StepOption("skip_package_repository_fetches", "Do not fetch package repositories (-skipPackageUpdates)",
                fastlaneEnv: ["GYM_SKIP_PACKAGE_REPOSITORY_FETCHES"], default: false)
    var skipPackageRepositoryFetches: Bool
    @StepOption("use_system_scm", "Use the system's git for packages (-scmProvider system)", fastlaneEnv: ["GYM_USE_SYSTEM_SCM"], default: false)
    var useSystemSCM: Bool
    @StepOption("package_authorization_provider", "netrc or keychain (-packageAuthorizationProvider)",
                fastlaneEnv: ["GYM_PACKAGE_AUTHORIZATION_PROVIDER"])
    var packageAuthorizationProvider: String?

    public init() {}

    public var banner: String {
        "Archive \(scheme ?? "the app")\(configuration.map { " (\($0))" } ?? "") and export \(exportMethod.map(String.init(describing:)) ?? "it")"
    }

    public func run(in context: StepContext) async throws -> BuiltApp {
        let step = Self.definition.id
        _ = try XcodebuildLocator.locate(pathVariable: context.environment["PATH"])
        if let catalystPlatform, !["ios", "macos"].contains(catalystPlatform) {
            throw LanesError(.usage, "\(step): catalyst_platform is ios or macos, not \(catalystPlatform)")
        }
        let container = try ProjectDiscovery.container(workspace: workspace, project: project, in: context, step: step)
        let schemes = XcodeSchemes(container, environment: context.environment)
        let scheme = try schemes.select(self.scheme, container: container, environment: context.environment, step: step, log: context.log)
        let detected = SchemePlatform.detect(scheme: schemes.scheme(named: scheme), schemeName: scheme,
                                             fallbackProject: container.projectPath ?? XcodeSchemes.projects(of: container.path).first)
        let catalystForMac = catalystPlatform == "macos" && detected.supportsMacCatalyst
        let archiveDestination = destination ?? platform.map { "generic/platform=\($0)" }
            ?? (catalystForMac ? "generic/platform=macOS,variant=Mac Catalyst" : "generic/platform=\(detected.platform.rawValue)")
        let buildsForMac = archiveDestination.contains("platform=macOS")
        let configuration = self.configuration ?? context.configuration?.buildConfiguration

        var settings = skipCodesigning
            ? [BuildSettingOverride("CODE_SIGN_IDENTITY", ""), BuildSettingOverride("CODE_SIGNING_REQUIRED", "NO"),
               BuildSettingOverride("CODE_SIGN_ENTITLEMENTS", ""), BuildSettingOverride("CODE_SIGNING_ALLOWED", "NO")]
            : []
        if !skipCodesigning, let codesigningIdentity { settings.append(BuildSettingOverride("CODE_SIGN_IDENTITY", codesigningIdentity)) }
        let (method, options) = try exportSettings(buildsForMac: buildsForMac, context: context)
        let plan = BuildAppPlan(
            root: context.projectDirectory, container: container, scheme: scheme, configuration: configuration, sdk: sdk,
            clean: clean, outputDirectory: context.resolve(outputDirectory), outputName: outputName,
            exportMethod: method, exportOptions: options,
            derivedDataPath: derivedDataPath.map(context.resolve), provisioningUpdates: try provisioningUpdates(context),
            buildSettings: settings, destination: archiveDestination, extraArguments: try xcodebuildArguments(context),
            exportExtraArguments: try exportXcargs.map { try ShellWords.split($0, option: "export_xcargs") } ?? [],
            archivePath: try chosenArchivePath(scheme: scheme, context: context), exportOptionsPlistFile: exportOptionsPlist.map(context.resolve),
            resultBundlePath: resultBundlePath.map(context.resolve))
        if let file = plan.exportOptionsPlistFile, !FilePath.exists(file) {
            throw LanesError(.configuration, "\(step): export_options_plist \(file) does not exist")
        }
        context.log.line("\(scheme): \(archiveDestination), export method \(method.rawValue)")
        // The plist is checked and written before xcodebuild starts, so a bad key costs no archive.
        let plist = try plan.exportOptionsPlist()
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
        var logs: [String] = []
        var warnings = 0
        if skipBuildArchive {
            guard FilePath.isDirectory(plan.archivePath) else {
                throw LanesError(.configuration, "\(step): skip_build_archive exports an archive made earlier, but \(plan.archivePath) is not one",
                                 hint: "pass archive_path: of the .xcarchive")
            }
            context.log.line("exporting \(plan.archivePath), made earlier (skip_build_archive)")
        } else {
            for path in plan.stalePaths { FilePath.removeTree(path) }
            let archive = try await BuildToolRun(context: context, label: "build_app-archive", showsEveryLine: !silent).run(plan.archiveCommand.toolInvocation)
            guard archive.outcome.succeeded else {
                throw BuildToolFailure(tool: "xcodebuild archive", summary: archive.summary, outcome: archive.outcome, logPath: archive.logPath)
            }
            logs.append(archive.logPath)
            warnings += archive.summary.warningCount
        }
        // An unsigned archive cannot be exported; fastlane's skip_codesigning stops here as well.
        if skipPackageIPA || skipCodesigning {
            let dSYMs = try plan.zipDSYMs()
            context.log.line("archived \(plan.archivePath) (no export: \(skipPackageIPA ? "skip_package_ipa" : "skip_codesigning"))")
            return BuiltApp(path: nil, kind: nil, dSYMZipPath: dSYMs, archivePath: plan.archivePath, bundleIdentifier: nil, version: nil,
                            build: nil, logPaths: logs, warningCount: warnings)
        }
        FilePath.removeTree(plan.exportPath)
        let export = try await BuildToolRun(context: context, label: "build_app-export", showsEveryLine: !silent).run(plan.exportCommand.toolInvocation)
        guard export.outcome.succeeded else {
            throw BuildToolFailure(tool: "xcodebuild -exportArchive", summary: export.summary, outcome: export.outcome, logPath: export.logPath)
        }
        let outputs = try plan.collectOutputs()
        logs.append(export.logPath)
        warnings += export.summary.warningCount
        guard outputs.product.kind.isIPA else {
            // A .pkg or a Developer ID .app is not an .ipa: check_ipa's checks do not apply. The
            // archive's Info.plist says what it holds, for pilot and deliver.
            let facts = ArchivedApplication.read(archive: plan.archivePath)
            context.log.line("exported \(outputs.product.path)")
            let built = BuiltApp(path: outputs.product.path, kind: outputs.product.kind.rawValue, dSYMZipPath: outputs.dSYMZipPath,
                                 archivePath: plan.archivePath, bundleIdentifier: facts?.bundleIdentifier, version: facts?.version, build: facts?.build,
                                 logPaths: logs, warningCount: warnings, platform: buildsForMac ? "osx" : detected.appStorePlatform)
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
                             logPaths: logs, warningCount: warnings,
                             platform: inspection.platformName.map(Self.appStorePlatform(ofPlatformName:)) ?? detected.appStorePlatform)
        context.values[BuiltAppValue.self] = built
        return built
    }

    /// pilot's reading of `DTPlatformName` (`iphoneos` is `ios`).
    static func appStorePlatform(ofPlatformName name: String) -> String {
        switch name {
        case "iphoneos": "ios"
        case "macosx": "osx"
        default: name
        }
    }

    /// The export method and options as gym makes them (package_command_generator_xcode7.rb's
    /// `read_export_options` and `config_content`; build_app.rb's profile mapping).
    func exportSettings(buildsForMac: Bool, context: StepContext) throws -> (ArchiveExportMethod, ExportOptions) {
        let given = try exportOptions?.resolved(context.resolve)
        var options = given ?? ExportOptions([])
        let signing = context.values[LaneSigningProfiles.self]
        let method: ArchiveExportMethod
        if let exportMethod {
            method = ArchiveExportMethod(exportMethod)
        } else if let profileMethod = signing?.exportMethod, profileMethod != .development {
            // build_app.rb: `export_method ||= lane_context[SIGH_PROFILE_TYPE]` unless development.
            method = ArchiveExportMethod(profileMethod)
        } else if case .string(let name)? = options.value(of: "method"), let named = ArchiveExportMethod(name: name) {
            method = named
        } else if let laneMethod = context.configuration?.exportMethod {
            method = ArchiveExportMethod(laneMethod)
        } else {
            method = .appStore
        }
        // The profiles match or sigh installed are merged in, the caller's winning on a conflict
        // unless only the installed one is of this export method.
        if let mapping = signing?.profiles, !mapping.isEmpty, exportOptions.map({ if case .plist = $0 { false } else { true } }) ?? true {
            var merged: [String: String] = [:]
            if case .dictionary(let existing)? = options.value(of: "provisioningProfiles") { merged = existing }
            for (bundle, profile) in mapping {
                guard let existing = merged[bundle] else { merged[bundle] = profile; continue }
                if !Self.profileName(existing, namesMethod: method) { merged[bundle] = profile }
            }
            options = options.adding("provisioningProfiles", .dictionary(merged))
        }
        var includeSymbols = self.includeSymbols, includeBitcode = self.includeBitcode
        if given != nil {
            if includeSymbols == nil, case .bool(let flag)? = options.value(of: "uploadSymbols") { includeSymbols = flag }
            if includeBitcode == nil, case .bool(let flag)? = options.value(of: "uploadBitcode") { includeBitcode = flag }
        } else {
            includeSymbols = includeSymbols ?? true
            includeBitcode = includeBitcode ?? false
        }
        options = options.removing("method")
        if method.isSameMethod(as: .appStore) {
            if let includeSymbols { options = options.adding("uploadSymbols", .bool(includeSymbols)) }
            if let includeBitcode { options = options.adding("uploadBitcode", .bool(includeBitcode)) }
        }
        // xcodebuild ignores provisioningProfiles unless signing is manual.
        if options.value(of: "provisioningProfiles") != nil { options = options.adding("signingStyle", .string("manual")) }
        if let installerCertName, buildsForMac { options = options.adding("installerSigningCertificate", .string(installerCertName)) }
        if let exportTeamID { options = options.adding("teamID", .string(exportTeamID)) }
        return (method, options)
    }

    /// gym's `app_identifier_contains?`: whether a profile's name says it is of `method`.
    static func profileName(_ name: String, namesMethod method: ArchiveExportMethod) -> Bool {
        let squeeze = { (text: String) in text.replacing("-", with: "").replacing(" ", with: "").lowercased() }
        return squeeze(name.replacing("InHouse", with: "enterprise")).contains(squeeze(method.rawValue))
    }

    /// gym's project parameters and options that are plain xcodebuild arguments.
    private func xcodebuildArguments(_ context: StepContext) throws -> [String] {
        var arguments: [String] = []
        if let toolchain { arguments += ["-toolchain", toolchain] }
        if let xcconfig { arguments += ["-xcconfig", context.resolve(xcconfig)] }
        if useSystemSCM { arguments += ["-scmProvider", "system"] }
        if let packageAuthorizationProvider { arguments += ["-packageAuthorizationProvider", packageAuthorizationProvider] }
        if let clonedSourcePackagesPath { arguments += ["-clonedSourcePackagesDirPath", context.resolve(clonedSourcePackagesPath)] }
        if let packageCachePath { arguments += ["-packageCachePath", context.resolve(packageCachePath)] }
        if disablePackageAutomaticUpdates { arguments.append("-disableAutomaticPackageResolution") }
        if skipPackageRepositoryFetches { arguments.append("-skipPackageUpdates") }
        if buildTimingSummary { arguments.append("-showBuildTimingSummary") }
        return arguments + (try xcargs.map { try ShellWords.split($0) } ?? [])
    }

    /// `archive_path`, else an archive named like gym's in `build_path`, else lanes' build folder.
    private func chosenArchivePath(scheme: String, context: StepContext) throws -> String? {
        if let archivePath { return context.resolve(archivePath) }
        guard let buildPath else { return nil }
        let stamp = Date().formatted(.iso8601.year().month().day().time(includingFractionalSeconds: false)).replacing(":", with: ".")
        return context.resolve(buildPath) + "/\(outputName.map { FilePath.name(of: $0).split(separator: ".").first.map(String.init) ?? $0 } ?? scheme) \(stamp).xcarchive"
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

/// The profiles signing steps installed in this lane, for build_app's export (fastlane's
/// `SIGH_PROFILE_TYPE` and `MATCH_PROVISIONING_PROFILE_MAPPING` lane values).
public struct InstalledProfiles: Sendable {
    /// The export method the profiles are for (match's type, sigh's kind).
    public var exportMethod: ExportMethod?
    /// Bundle identifier -> profile name.
    public var profiles: [String: String]

    public init(exportMethod: ExportMethod?, profiles: [String: String]) {
        self.exportMethod = exportMethod
        self.profiles = profiles
    }
}

public enum LaneSigningProfiles: LaneValueKey {
    public typealias Value = InstalledProfiles
}

/// What an .xcarchive's Info.plist says about the app in it (`ApplicationProperties`).
struct ArchivedApplication {
    let bundleIdentifier: String?
    let version: String?
    let build: String?

    static func read(archive: String) -> ArchivedApplication? {
        guard let data = FileManager.default.contents(atPath: archive + "/Info.plist"),
              let plist = try? PropertyListSerialization.propertyList(from: data, format: nil) as? [String: Any],
              let properties = plist["ApplicationProperties"] as? [String: Any] else { return nil }
        return ArchivedApplication(bundleIdentifier: properties["CFBundleIdentifier"] as? String,
                                   version: properties["CFBundleShortVersionString"] as? String, build: properties["CFBundleVersion"] as? String)
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
    /// The App Store platform of the product (`ios`, `appletvos`, `xros`, `osx`), as pilot reads it.
    public let platform: String?

    public init(path: String?, kind: String?, dSYMZipPath: String?, archivePath: String?, bundleIdentifier: String?, version: String?,
                build: String?, logPaths: [String], warningCount: Int, platform: String? = nil) {
        self.path = path
        self.kind = kind
        self.dSYMZipPath = dSYMZipPath
        self.archivePath = archivePath
        self.bundleIdentifier = bundleIdentifier
        self.version = version
        self.build = build
        self.logPaths = logPaths
        self.warningCount = warningCount
        self.platform = platform
    }

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

extension ArchiveExportMethod {
    /// Lanes' `ExportMethod` as the plist writes it (classic names; xcodebuild maps them).
    init(_ method: ExportMethod) {
        self = ArchiveExportMethod(name: method.rawValue) ?? .adHoc
    }
}

extension XcodebuildCommand {
    var toolInvocation: ToolInvocation { ToolInvocation(arguments) }
}
