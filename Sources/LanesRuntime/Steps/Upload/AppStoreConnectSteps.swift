#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
import LanesAppStoreConnect
import LanesUpload
internal import LanesPlatform

/// The API key `app_store_connect_api_key` set for the rest of the lane.
public enum LaneAppStoreConnectKey: LaneValueKey {
    public typealias Value = AppStoreConnectKey
}

/// The .p8 file written for xcodebuild's `-authenticationKeyPath`, once per lane.
enum LaneAppStoreConnectKeyFile: LaneValueKey {
    typealias Value = String
}

extension StepContext {
    /// The lane's App Store Connect key: the one `app_store_connect_api_key` set, else the one that
    /// step's declared options describe through their environment variables (fastlane's
    /// APP_STORE_CONNECT_API_KEY_* names, then ASC_*). Its material goes to the redactor first.
    func appStoreConnectKey() throws -> AppStoreConnectKey {
        let key = try values[LaneAppStoreConnectKey.self]
            ?? AppStoreConnectAPIKeyStep.resolve(StepArguments(), environment: environment).key(environment: environment, resolvePath: resolve)
        key.secrets.forEach { environment.redactor.register($0) }
        return key
    }

    func appStoreConnect(key: AppStoreConnectKey? = nil) throws -> AppStoreConnectClient {
        let redactor = environment.redactor
        let log = self.log
        let key = try key ?? appStoreConnectKey()
        return AppStoreConnectClient(key: key, baseURL: try AppStoreConnectClient.baseURL(environment: environment.variables, inHouse: key.inHouse),
                                     registerSecret: { redactor.register($0) }, log: { log.line($0) })
    }

    /// How every App Store Connect step about one app starts: the lane's key, a client, and the
    /// app's id (`apple_id`, else looked up by bundle id).
    func appStoreConnectApp(appleID: String?, bundleID: String?, step: String) async throws -> (client: AppStoreConnectClient, appID: String) {
        let client = try appStoreConnect()
        return (client, try await appStoreConnectAppID(client: client, appleID: appleID, bundleID: bundleID, step: step))
    }

    /// The build-upload flow both `upload_to_testflight` and `upload_to_app_store` use: upload and
    /// commit, then, unless `wait` is false, the processed build (polled cancellably until `timeout`).
    func uploadBuildToAppStoreConnect(client: AppStoreConnectClient, appID: String, path: String, version: String, build: String,
                                      platform: AppStorePlatform, wait: Bool, pollInterval: Double, timeout: Double) async throws -> (BuildUploadResult, Build?) {
        let log = self.log
        log.line("uploading \(path) as \(version) (\(build))")
        let upload = try await client.uploadBuild(appID: appID, file: path, version: version, buildNumber: build, platform: platform,
                                                  progress: StepLogProgress(log: log))
        log.line("committed build upload \(upload.uploadID) (\(upload.parts) part(s), MD5 \(upload.md5))")
        guard wait else { return (upload, nil) }
        let processed = try await client.waitForBuild(appID: appID, version: version, buildNumber: build, platform: platform, uploadID: upload.uploadID,
                                                      pollInterval: pollInterval, timeout: timeout, waitForProcessing: true,
                                                      progress: { log.line($0) })
        return (upload, processed)
    }

    /// The lane's key as xcodebuild takes it (`-authenticationKeyPath/ID/IssuerID`): the PEM written
    /// 0600 into a 0700 folder of this process under the state folder, deleted when the lane ends;
    /// after a kill -9 the next run's sweep removes it. Nil when no step set a key.
    func laneKeyForXcodebuild() throws -> (path: String, keyID: String, issuerID: String)? {
        guard let key = values[LaneAppStoreConnectKey.self] else { return nil }
        if let path = values[LaneAppStoreConnectKeyFile.self] { return (path, key.keyID, key.issuerID) }
        let folder = try ScratchFolder.create(in: Self.keyFolders(stateDirectory: stateDirectory))
        cleanups.push("delete \(folder)") { FilePath.removeTree(folder) }
        let path = folder + "/AuthKey_\(key.keyID).p8"
        try AtomicFile.write(key.privateKeyPEM, to: path, permissions: 0o600)
        values[LaneAppStoreConnectKeyFile.self] = path
        return (path, key.keyID, key.issuerID)
    }

    /// Where each run's key folder for xcodebuild goes (swept at the start of every run).
    static func keyFolders(stateDirectory: String) -> String { stateDirectory + "/asc" }

    /// The App Store Connect id of the app: `apple_id` when given, else looked up by bundle id.
    func appStoreConnectAppID(client: AppStoreConnectClient, appleID: String?, bundleID: String?, step: String) async throws -> String {
        if let appleID { return appleID }
        guard let bundleID = bundleID ?? values[BuiltAppValue.self]?.bundleIdentifier else {
            throw LanesError(.usage, "\(step): no app_identifier (the bundle id) given", hint: "pass app_identifier:, or set APP_IDENTIFIER")
        }
        return try await client.app(bundleID: bundleID).id
    }
}

func appStorePlatform(_ text: String, step: String) throws -> AppStorePlatform {
    guard let platform = AppStorePlatform(fastlane: text) else {
        throw LanesError(.usage, "\(step): platform \(text) is not one of ios, osx, appletvos, xros")
    }
    return platform
}

/// `app_store_connect_api_key`: fastlane's action of the same name. The key it reads is used by every
/// later step of the lane that talks to App Store Connect, and by build_app's -authenticationKey*.
public struct AppStoreConnectAPIKeyStep: Step {
    public typealias Output = AppStoreConnectKeyInfo

    public static let definition = StepDefinition(
        id: "app_store_connect_api_key",
        summary: "Set the App Store Connect API key for the rest of the lane",
        category: .upload,
        examples: [StepExample(
            swift: #"try await appStoreConnectApiKey(keyID: "D383SF739", issuerID: "6053b7fe-68a8-4acb-89be-165aa6465141", keyFilepath: "AuthKey_D383SF739.p8")"#,
            commandLine: ["key_id:D383SF739", "issuer_id:6053b7fe-68a8-4acb-89be-165aa6465141", "key_filepath:AuthKey_D383SF739.p8"])]
    )

    @StepOption("key_id", "The key's id (ASC_KEY_ID is read too)", env: AppStoreConnectKey.Variable.keyID)
    var keyID: String?
    @StepOption("issuer_id", "The issuer id of the key's team (ASC_ISSUER_ID is read too)", env: AppStoreConnectKey.Variable.issuerID)
    var issuerID: String?
    @StepOption("key_content", "The .p8's PEM text, or its base64 with is_key_content_base64", env: AppStoreConnectKey.Variable.key, secret: true)
    var keyContent: Secret?
    @StepOption("key_filepath", "The AuthKey_ID.p8 file (ASC_PRIVATE_KEY is read too: a path or the PEM)", env: AppStoreConnectKey.Variable.keyFilepath)
    var keyFilepath: String?
    @StepOption("is_key_content_base64", "key_content is base64", env: AppStoreConnectKey.Variable.isBase64, default: false)
    var isKeyContentBase64: Bool
    @StepOption("in_house", "An enterprise (in-house) team's key", env: AppStoreConnectKey.Variable.inHouse, default: false)
    var inHouse: Bool

    public init() {}

    public var banner: String { "Use App Store Connect API key \(keyID ?? "from the environment")" }

    public func run(in context: StepContext) async throws -> AppStoreConnectKeyInfo {
        let key = try key(environment: context.environment, resolvePath: context.resolve)
        // A token is made now so a key OpenSSL cannot read fails here, not in a later upload.
        context.environment.redactor.register(try key.token(now: Int(Date().timeIntervalSince1970)))
        context.values[LaneAppStoreConnectKey.self] = key
        context.log.line("App Store Connect key \(key.keyID) (issuer \(key.issuerID)) set for this lane")
        return AppStoreConnectKeyInfo(keyID: key.keyID, issuerID: key.issuerID, inHouse: key.inHouse)
    }

    /// The key these options describe (each from its argument, else its environment variable), with
    /// lanes' older ASC_KEY_ID, ASC_ISSUER_ID and ASC_PRIVATE_KEY (a .p8 path or its PEM) as aliases.
    /// Every shape of the material is registered with the redactor before anything can print it.
    func key(environment: Environment, resolvePath: (String) -> String) throws -> AppStoreConnectKey {
        let variables = environment.variables, redactor = environment.redactor
        let keyContent = self.keyContent?.value
        if let keyContent { redactor.register(keyContent) }
        var hint = "call app_store_connect_api_key in the lane, or set \(AppStoreConnectKey.Variable.keyID), \(AppStoreConnectKey.Variable.issuerID) and \(AppStoreConnectKey.Variable.key)"
        // fastlane's Apple-ID sign-in: say plainly that lanes does not do it, and what takes its place.
        let appleID = AppleIDSignIn.variables.filter { !(variables[$0] ?? "").isEmpty }
        if !appleID.isEmpty { hint = AppleIDSignIn.answer(set: appleID) + "; " + hint }
        guard let keyID = keyID ?? variables["ASC_KEY_ID"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw LanesError(.environment, "App Store Connect: no API key id (key_id, \(AppStoreConnectKey.Variable.keyID) or ASC_KEY_ID)", hint: hint)
        }
        guard let issuerID = issuerID ?? variables["ASC_ISSUER_ID"].flatMap({ $0.isEmpty ? nil : $0 }) else {
            throw LanesError(.environment, "App Store Connect: no issuer id (issuer_id, \(AppStoreConnectKey.Variable.issuerID) or ASC_ISSUER_ID)", hint: hint)
        }
        let key: AppStoreConnectKey
        if let keyContent {
            key = try AppStoreConnectKey(keyID: keyID, issuerID: issuerID, keyContent: keyContent, isBase64: isKeyContentBase64, inHouse: inHouse,
                                         source: "key_content (\(AppStoreConnectKey.Variable.key))")
        } else if let keyFilepath {
            key = try AppStoreConnectKey(keyID: keyID, issuerID: issuerID, keyFilepath: resolvePath(keyFilepath), inHouse: inHouse,
                                         source: "key_filepath (\(AppStoreConnectKey.Variable.keyFilepath))")
        } else if let legacy = variables["ASC_PRIVATE_KEY"], !legacy.isEmpty {
            redactor.register(legacy)
            key = legacy.contains("-----BEGIN")
                ? try AppStoreConnectKey(keyID: keyID, issuerID: issuerID, keyContent: legacy, inHouse: inHouse, source: "ASC_PRIVATE_KEY")
                : try AppStoreConnectKey(keyID: keyID, issuerID: issuerID, keyFilepath: resolvePath(legacy), inHouse: inHouse, source: "ASC_PRIVATE_KEY")
        } else {
            throw LanesError(.environment, "App Store Connect: neither key_content nor key_filepath given",
                             hint: "set \(AppStoreConnectKey.Variable.key) (PEM or base64) or \(AppStoreConnectKey.Variable.keyFilepath), or call app_store_connect_api_key in the lane")
        }
        key.secrets.forEach { redactor.register($0) }
        return key
    }

    /// The key `environment` describes, for front doors without a lane (`lanes asc`).
    public static func key(from environment: Environment) throws -> AppStoreConnectKey {
        try resolve(StepArguments(), environment: environment).key(environment: environment, resolvePath: { $0 })
    }
}

/// Which key a lane uses (never its material).
public struct AppStoreConnectKeyInfo: Sendable, ReportableResult {
    public let keyID: String
    public let issuerID: String
    public let inHouse: Bool

    public var report: StepResultReport {
        StepResultReport(lines: ["key \(keyID), issuer \(issuerID)\(inHouse ? ", in-house" : "")"],
                         json: .object([("key_id", .string(keyID)), ("issuer_id", .string(issuerID)), ("in_house", .bool(inHouse))]))
    }
}

/// A build number read from App Store Connect.
public struct AppStoreBuildNumberResult: Sendable, ReportableResult {
    /// The number found, or `initial_build_number` when the app has no build yet.
    public let buildNumber: String
    public let version: String?
    public let appID: String
    /// Whether `buildNumber` came from App Store Connect (false: the initial number).
    public let found: Bool

    public var report: StepResultReport {
        StepResultReport(lines: [found ? "build number \(buildNumber)\(version.map { " (version \($0))" } ?? "")"
                                       : "no build found: \(buildNumber) (initial_build_number)"],
                         json: .object([("build_number", .string(buildNumber)), ("version", version.map(JSONValue.string) ?? .null),
                                        ("app_id", .string(appID)), ("found", .bool(found))]))
    }
}

/// `latest_testflight_build_number`: the highest build number TestFlight has for the app (of one
/// version when given), every page read, in Apple's ordering.
public struct LatestTestflightBuildNumber: Step {
    public typealias Output = AppStoreBuildNumberResult

    public static let definition = StepDefinition(
        id: "latest_testflight_build_number",
        summary: "The highest build number TestFlight has for an app (or one version of it)",
        category: .upload,
        examples: [StepExample(swift: #"let latest = try await latestTestflightBuildNumber(appIdentifier: "com.example.brewer", version: "1.4.0")"#,
                               commandLine: ["app_identifier:com.example.brewer", "version:1.4.0"],
                               environment: [AppStoreConnectKey.Variable.keyID, AppStoreConnectKey.Variable.issuerID, AppStoreConnectKey.Variable.key])],
        needsAppStoreConnectKey: true
    )

    @StepOption("app_identifier", "The app's bundle id (default: the lane's Configuration's)", env: "APP_IDENTIFIER", appfile: .appIdentifier)
    var appIdentifier: String?
    @StepOption("apple_id", "The app's Apple id in App Store Connect (skips the bundle id lookup)", env: "ASC_APP_ID")
    var appleID: String?
    @StepOption("version", "Only builds of this version (CFBundleShortVersionString)", env: "LATEST_VERSION")
    var version: String?
    @StepOption("platform", "ios, osx, appletvos or xros", env: "APPSTORE_PLATFORM", default: "ios")
    var platform: String
    @StepOption("initial_build_number", "The number returned when there is no build", env: "INITIAL_BUILD_NUMBER", default: "1")
    var initialBuildNumber: String

    public init() {}

    public var banner: String { "Latest TestFlight build number of \(appIdentifier ?? appleID ?? "the app")\(version.map { " \($0)" } ?? "")" }

    public func run(in context: StepContext) async throws -> AppStoreBuildNumberResult {
        let platform = try appStorePlatform(platform, step: Self.definition.id)
        let (client, appID) = try await context.appStoreConnectApp(appleID: appleID, bundleID: appIdentifier, step: Self.definition.id)
        let latest = try await client.latestTestFlightBuildNumber(appID: appID, version: version, platform: platform)
        let result = AppStoreBuildNumberResult(buildNumber: latest ?? initialBuildNumber, version: version, appID: appID, found: latest != nil)
        context.log.line(result.report.lines[0])
        return result
    }
}

/// `app_store_build_number`: the build number of the app's live App Store version, or of its newest
/// version (of `version` when given) with `live:false`.
public struct AppStoreBuildNumber: Step {
    public typealias Output = AppStoreBuildNumberResult

    public static let definition = StepDefinition(
        id: "app_store_build_number",
        summary: "The build number of the app's live (or newest) App Store version",
        category: .upload,
        examples: [StepExample(swift: #"let live = try await appStoreBuildNumber(appIdentifier: "com.example.brewer")"#,
                               commandLine: ["app_identifier:com.example.brewer"],
                               environment: [AppStoreConnectKey.Variable.keyID, AppStoreConnectKey.Variable.issuerID, AppStoreConnectKey.Variable.key])],
        needsAppStoreConnectKey: true
    )

    @StepOption("app_identifier", "The app's bundle id (default: the lane's Configuration's)", env: "APP_IDENTIFIER", appfile: .appIdentifier)
    var appIdentifier: String?
    @StepOption("apple_id", "The app's Apple id in App Store Connect (skips the bundle id lookup)", env: "ASC_APP_ID")
    var appleID: String?
    @StepOption("live", "The version on sale (false: the newest version, in review or in edit)", env: "APPSTORE_BUILD_NUMBER_LIVE", default: true)
    var live: Bool
    @StepOption("version", "Only this version (with live:false)")
    var version: String?
    @StepOption("platform", "ios, osx, appletvos or xros", env: "APPSTORE_PLATFORM", default: "ios")
    var platform: String
    @StepOption("initial_build_number", "The number returned when there is no build", default: "1")
    var initialBuildNumber: String

    public init() {}

    public var banner: String { "App Store build number of \(appIdentifier ?? appleID ?? "the app")" }

    public func run(in context: StepContext) async throws -> AppStoreBuildNumberResult {
        let platform = try appStorePlatform(platform, step: Self.definition.id)
        let (client, appID) = try await context.appStoreConnectApp(appleID: appleID, bundleID: appIdentifier, step: Self.definition.id)
        let found = try await client.appStoreBuildNumber(appID: appID, live: live, version: version, platform: platform)
        let result = AppStoreBuildNumberResult(buildNumber: found?.build ?? initialBuildNumber, version: found?.version ?? version,
                                               appID: appID, found: found?.build != nil)
        context.log.line(result.report.lines[0])
        return result
    }
}

/// `upload_to_app_store` (fastlane's deliver, metadata part): reads fastlane's metadata folder and
/// checks Apple's length limits before any request, then selects or creates the version, updates
/// its localizations, attaches the build, sets the release type, phased release, and submits for
/// review. `dry_run:true` reads App Store Connect and prints every change without making one.
///
/// Left to its defaults it does what deliver does (fastlane/actions/upload_to_app_store.rb,
/// deliver/detect_values.rb): it uploads the .ipa or .pkg build_app made in this lane (unless
/// `skip_binary_upload`), as that package's platform, and takes the version, build number and
/// bundle identifier from it.
public struct UploadToAppStore: Step {
    public typealias Output = AppStoreReleaseResult

    public static let definition = StepDefinition(
        id: "upload_to_app_store",
        summary: "Update an App Store version's metadata, attach a build and submit it for review",
        category: .upload,
        examples: [StepExample(
            swift: #"try await uploadToAppStore(appIdentifier: "com.example.brewer", appVersion: "1.4.0", buildNumber: "42", submitForReview: true)"#,
            commandLine: ["app_identifier:com.example.brewer", "app_version:1.4.0", "metadata_path:fastlane/metadata", "dry_run:true"],
            environment: [AppStoreConnectKey.Variable.keyID, AppStoreConnectKey.Variable.issuerID, AppStoreConnectKey.Variable.key])],
        aliases: ["deliver", "appstore"],
        ignoredOptions: [
            "force": "it skips fastlane's HTML preview of the metadata, which lanes does not make (dry_run:true prints every change instead)",
            "username": "lanes signs in to App Store Connect with an API key only (app_store_connect_api_key; see docs/appstore.md)",
            "team_name": "an API key belongs to one team",
            "itc_provider": "lanes uploads through App Store Connect's API, not the Transporter",
            "provider_public_id": "lanes uploads through App Store Connect's API, not altool",
            "run_precheck_before_submit": "lanes has no precheck; App Review checks the submission",
            "precheck_include_in_app_purchases": "lanes has no precheck",
        ],
        needsAppStoreConnectKey: true
    )

    @StepOption("app_identifier", "The app's bundle id (default: the lane's Configuration's, else the package's)", env: "APP_IDENTIFIER",
                fastlaneEnv: ["DELIVER_APP_IDENTIFIER"], appfile: .appIdentifier)
    var appIdentifier: String?
    @StepOption("apple_id", "The app's Apple id in App Store Connect (skips the bundle id lookup)", env: "ASC_APP_ID", fastlaneEnv: ["DELIVER_APP_ID"],
                aliases: ["app"])
    var appleID: String?
    @StepOption("app_version", "The App Store version (default: the package's)", env: "DELIVER_APP_VERSION")
    var appVersion: String?
    @StepOption("build_number", "The build to attach (default: the package's, when one is uploaded)", env: "DELIVER_BUILD_NUMBER")
    var buildNumber: String?
    @StepOption("platform", "ios, osx, appletvos or xros (default: the package's, else ios)", env: "DELIVER_PLATFORM")
    var platform: String?
    @StepOption("metadata_path", "fastlane's metadata folder (<locale>/description.txt, ...)", env: "DELIVER_METADATA_PATH", default: "fastlane/metadata")
    var metadataPath: String
    @StepOption("skip_metadata", "Leave the metadata as it is", env: "DELIVER_SKIP_METADATA", default: false)
    var skipMetadata: Bool
    @StepOption("submit_for_review", "Submit the version for review", env: "DELIVER_SUBMIT_FOR_REVIEW", default: false)
    var submitForReview: Bool
    @StepOption("automatic_release", "Release after approval (false: manually)", env: "DELIVER_AUTOMATIC_RELEASE")
    var automaticRelease: Bool?
    @StepOption("phased_release", "Release in phases over 7 days", env: "DELIVER_PHASED_RELEASE", default: false)
    var phasedRelease: Bool
    @StepOption("screenshots_path", "fastlane's screenshots folder (<locale>/<name>.png; default: fastlane/screenshots when it exists)", env: "DELIVER_SCREENSHOTS_PATH")
    var screenshotsPath: String?
    @StepOption("skip_screenshots", "Leave the screenshots as they are", env: "DELIVER_SKIP_SCREENSHOTS", default: false)
    var skipScreenshots: Bool
    @StepOption("overwrite_screenshots", "Delete the screenshot sets of each locale uploaded first", env: "DELIVER_OVERWRITE_SCREENSHOTS", default: false)
    var overwriteScreenshots: Bool
    @StepOption("screenshot_processing_timeout", "Seconds App Store Connect may take to process the screenshots", env: "DELIVER_SCREENSHOT_PROCESSING_TIMEOUT", default: 3600)
    var screenshotProcessingTimeout: Int
    @StepOption("ipa", "The .ipa to upload first (as upload_to_testflight does), then attach (default: what build_app made in this lane)",
                env: "DELIVER_IPA_PATH")
    var ipa: String?
    @StepOption("pkg", "A macOS .pkg to upload instead (default: what build_app made in this lane)", env: "DELIVER_PKG_PATH")
    var pkg: String?
    @StepOption("skip_binary_upload", "Do not upload the ipa or pkg", env: "DELIVER_SKIP_BINARY_UPLOAD", default: false)
    var skipBinaryUpload: Bool
    @StepOption("wait_processing_interval", "Seconds between looks at the uploaded build's processing state", default: 30)
    var waitProcessingInterval: Int
    @StepOption("wait_processing_timeout_duration", "Seconds the uploaded build's processing may take", default: 3600)
    var processingTimeout: Int
    @StepOption("dry_run", "Print every change without making it", default: false)
    var dryRun: Bool

    public init() {}

    public var banner: String { "\(dryRun ? "Preview" : "Send") App Store version \(appVersion ?? "") of \(appIdentifier ?? appleID ?? "the app")" }

    public func run(in context: StepContext) async throws -> AppStoreReleaseResult {
        let step = Self.definition.id
        let package = skipBinaryUpload ? nil : try ShippedPackage.find(ipa: ipa, pkg: pkg, platform: self.platform, step: step, context: context)
        // deliver's ipa/pkg default to the lane's build even with skip_binary_upload: its platform and version still count.
        let built = context.values[BuiltAppValue.self]
        let platform = try appStorePlatform(self.platform ?? package?.platform ?? built?.platform ?? "ios", step: step)
        guard let version = appVersion ?? package?.version ?? built?.version else {
            throw LanesError(.usage, "\(step): no app_version", hint: "pass app_version:, or run build_app first")
        }
        // Read and checked before any request: a file over Apple's limit, or a screenshot of a size
        // Apple does not take, costs nothing remote.
        // deliver globs metadata_path's locale folders: with no such folder there is nothing to upload, not an error.
        let metadataFolder = context.resolve(metadataPath)
        let metadata = skipMetadata || !FilePath.exists(metadataFolder) ? nil : try AppStoreMetadata.read(folder: metadataFolder)
        if !skipMetadata && metadata == nil { context.log.line("no metadata at \(metadataPath): the version's metadata stays as it is (as deliver)") }
        var screenshots: ScreenshotUpload?
        if !skipScreenshots {
            let folder = context.resolve(screenshotsPath ?? "fastlane/screenshots")
            if screenshotsPath != nil || FilePath.exists(folder) {
                screenshots = ScreenshotUpload(screenshots: try AppStoreScreenshots.read(folder: folder), overwrite: overwriteScreenshots,
                                               timeout: Double(screenshotProcessingTimeout))
            }
        }
        let binary = package?.path
        var attach = buildNumber
        if binary != nil {
            guard let build = buildNumber ?? package?.build else {
                throw LanesError(.usage, "\(step): the ipa's build number is unknown", hint: "pass build_number:, or run build_app first")
            }
            attach = build
        }
        let (client, appID) = try await context.appStoreConnectApp(appleID: appleID, bundleID: appIdentifier ?? package?.bundleIdentifier, step: step)
        // deliver's select_build: submitting with no build number and no binary takes the version's latest build.
        if attach == nil && binary == nil && submitForReview {
            attach = try await client.latestTestFlightBuildNumber(appID: appID, version: version, platform: platform)
            if let attach { context.log.line("submitting build \(attach), the latest of version \(version) (as deliver selects it)") }
        }
        let log = context.log
        var uploaded: [String] = []
        if let binary, let attach {
            if dryRun {
                uploaded.append("upload \(binary) as \(version) (\(attach))")
                log.line("would " + uploaded[0])
            } else {
                _ = try await context.uploadBuildToAppStoreConnect(client: client, appID: appID, path: binary, version: version, build: attach,
                                                                   platform: platform, wait: true, pollInterval: Double(waitProcessingInterval),
                                                                   timeout: Double(processingTimeout))
                uploaded.append("uploaded \(FilePath.name(of: binary)) as \(version) (\(attach))")
            }
        }
        let outcome = try await client.release(appID: appID, AppStoreRelease(
            version: version, platform: platform, metadata: metadata, buildNumber: attach, submitForReview: submitForReview,
            automaticRelease: automaticRelease, phasedRelease: phasedRelease, dryRun: dryRun, screenshots: screenshots),
            progress: { log.line($0) }, buildPending: dryRun && !uploaded.isEmpty)
        if outcome.changes.isEmpty && uploaded.isEmpty { log.line("nothing to change") }
        return AppStoreReleaseResult(appID: appID, version: version, versionID: outcome.versionID, changes: uploaded + outcome.changes, dryRun: dryRun)
    }
}

/// What `upload_to_app_store` changed (or would change, in a dry run).
public struct AppStoreReleaseResult: Sendable, ReportableResult {
    public let appID: String
    public let version: String
    public let versionID: String?
    public let changes: [String]
    public let dryRun: Bool

    public var report: StepResultReport {
        StepResultReport(lines: (dryRun ? ["dry run: nothing was changed"] : []) + changes,
                         json: .object([("app_id", .string(appID)), ("version", .string(version)), ("version_id", versionID.map(JSONValue.string) ?? .null),
                                        ("changes", .array(changes.map(JSONValue.string))), ("dry_run", .bool(dryRun))]))
    }
}

/// `register_devices`: adds the devices App Store Connect does not have yet, from Apple's
/// tab-separated devices file (`Device ID<TAB>Device Name[<TAB>Device Platform]`, header first) or `devices:`.
public struct RegisterDevices: Step {
    public typealias Output = RegisteredDevices

    public static let definition = StepDefinition(
        id: "register_devices",
        summary: "Register devices (UDIDs) with App Store Connect",
        category: .signing,
        examples: [StepExample(swift: #"try await registerDevices(devicesFile: "devices.txt")"#, commandLine: ["devices_file:devices.txt"],
                               environment: [AppStoreConnectKey.Variable.keyID, AppStoreConnectKey.Variable.issuerID, AppStoreConnectKey.Variable.key])],
        needsAppStoreConnectKey: true
    )

    @StepOption("devices", "Devices as NAME=UDID", default: [])
    var devices: [String]
    @StepOption("devices_file", "Apple's tab-separated devices file", env: "FASTLANE_REGISTER_DEVICES_FILE")
    var devicesFile: String?
    @StepOption("platform", "ios or mac (the devices' platform)", env: "REGISTER_DEVICES_PLATFORM", default: "ios")
    var platform: String

    public init() {}

    public var banner: String { "Register devices with App Store Connect" }

    public func run(in context: StepContext) async throws -> RegisteredDevices {
        let step = Self.definition.id
        let applePlatform = platform.lowercased() == "mac" || platform.lowercased() == "osx" ? "MAC_OS" : "IOS"
        var list: [(name: String, udid: String)] = []
        for entry in devices {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty, !parts[1].isEmpty else {
                throw LanesError(.usage, "\(step): devices entry '\(entry)' is not NAME=UDID")
            }
            list.append((parts[0], parts[1]))
        }
        if let devicesFile {
            let path = context.resolve(devicesFile)
            guard let data = FileManager.default.contents(atPath: path) else {
                throw LanesError(.configuration, "\(step): devices_file \(path) cannot be read", hint: "check devices_file or FASTLANE_REGISTER_DEVICES_FILE")
            }
            for (index, line) in String(decoding: data, as: UTF8.self).split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map { String($0).trimmingCharacters(in: .whitespacesAndNewlines) }
                if fields.allSatisfy(\.isEmpty) { continue }
                if index == 0, fields.first == "Device ID" { continue }
                guard fields.count >= 2, !fields[0].isEmpty, !fields[1].isEmpty else {
                    throw LanesError(.configuration, "\(path):\(index + 1): expected 'Device ID<TAB>Device Name[<TAB>Device Platform]'")
                }
                list.append((fields[1], fields[0]))
            }
        }
        guard !list.isEmpty else { throw LanesError(.usage, "\(step): no devices given", hint: "pass devices: or devices_file:") }
        let outcome = try await context.appStoreConnect().registerDevices(list, platform: applePlatform)
        context.log.line("registered \(outcome.added.count) new device(s)\(outcome.added.isEmpty ? "" : ": " + outcome.added.joined(separator: ", ")); \(outcome.existing.count) already there")
        return RegisteredDevices(added: outcome.added, existing: outcome.existing)
    }
}

public struct RegisteredDevices: Sendable, ReportableResult {
    public let added: [String]
    public let existing: [String]

    public var report: StepResultReport {
        StepResultReport(lines: ["added: \(added.joined(separator: ", "))", "already registered: \(existing.count)"],
                         json: .object([("added", .array(added.map(JSONValue.string))), ("existing", .array(existing.map(JSONValue.string)))]))
    }
}

/// `get_provisioning_profile` (fastlane's sigh): downloads the newest active profile of a type for a
/// bundle id, creating it when missing unless `readonly`, writes it, and installs it through
/// `install_provisioning_profile`'s checks.
public struct GetProvisioningProfile: Step {
    public typealias Output = DownloadedProvisioningProfile

    public static let definition = StepDefinition(
        id: "get_provisioning_profile",
        summary: "Download (or create) a provisioning profile from App Store Connect and install it",
        category: .signing,
        examples: [StepExample(swift: #"try await getProvisioningProfile(appIdentifier: "com.example.brewer", adhoc: true)"#,
                               commandLine: ["app_identifier:com.example.brewer", "adhoc:true"],
                               environment: [AppStoreConnectKey.Variable.keyID, AppStoreConnectKey.Variable.issuerID, AppStoreConnectKey.Variable.key])],
        needsAppStoreConnectKey: true
    )

    @StepOption("app_identifier", "The bundle id the profile is for (default: the lane's Configuration's)", env: "APP_IDENTIFIER",
                fastlaneEnv: ["SIGH_APP_IDENTIFIER"], appfile: .appIdentifier)
    var appIdentifier: String
    @StepOption("adhoc", "An ad hoc profile", env: "SIGH_AD_HOC", default: false)
    var adhoc: Bool
    @StepOption("development", "A development profile", env: "SIGH_DEVELOPMENT", default: false)
    var development: Bool
    @StepOption("readonly", "Only download; fail when there is none", env: "SIGH_READONLY", default: false)
    var readonly: Bool
    @StepOption("platform", "ios, osx, appletvos or xros", env: "SIGH_PLATFORM", default: "ios")
    var platform: String
    @StepOption("provisioning_name", "The name of a profile lanes creates", env: "SIGH_PROVISIONING_PROFILE_NAME")
    var provisioningName: String?
    @StepOption("output_path", "Where the .mobileprovision is written", env: "SIGH_OUTPUT_PATH", default: ".")
    var outputPath: String
    @StepOption("filename", "The file's name (default: KIND_BUNDLEID.mobileprovision)", env: "SIGH_PROFILE_FILE_NAME")
    var filename: String?
    @StepOption("skip_install", "Only write the file", env: "SIGH_SKIP_INSTALL", default: false)
    var skipInstall: Bool

    public init() {}

    public var banner: String { "Get the \(adhoc ? "ad hoc" : development ? "development" : "App Store") profile of \(appIdentifier)" }

    public func run(in context: StepContext) async throws -> DownloadedProvisioningProfile {
        let step = Self.definition.id
        guard !(adhoc && development) else { throw LanesError(.usage, "\(step): adhoc and development exclude each other") }
        let kind: ProfileKind = adhoc ? .adHoc : development ? .development : .appStore
        let platform = try appStorePlatform(platform, step: step)
        let profile = try await context.appStoreConnect().provisioningProfile(bundleIdentifier: appIdentifier, kind: kind, platform: platform,
                                                                              create: !readonly, name: provisioningName)
        let folder = context.resolve(outputPath)
        try FilePath.makeDirectories(folder)
        let path = folder + "/" + (filename ?? "\(kind == .appStore ? "AppStore" : kind == .adHoc ? "AdHoc" : "Development")_\(appIdentifier).mobileprovision")
        try AtomicFile.write(profile.content, to: path)
        context.log.line("\(profile.created ? "created" : "downloaded") '\(profile.name)' (\(profile.profileType)) to \(path)")
        // fastlane's SIGH_PROFILE_TYPE and SIGH_PROFILE_PATHS, which build_app reads.
        var mapping = context.values[LaneSigningProfiles.self]?.profiles ?? [:]
        mapping[appIdentifier] = profile.name
        context.values[LaneSigningProfiles.self] = InstalledProfiles(exportMethod: kind == .appStore ? .appStore : kind == .adHoc ? .adHoc : .development,
                                                                     profiles: mapping)
        var installedPath: String?
        if !skipInstall {
            let install = try InstallProvisioningProfile.resolve(StepArguments(text: ["path": path, "app_identifier": appIdentifier]),
                                                                 environment: context.environment)
            installedPath = try await install.run(in: context).installedPath
        }
        return DownloadedProvisioningProfile(path: path, name: profile.name, profileType: profile.profileType, uuid: profile.uuid,
                                             created: profile.created, installedPath: installedPath)
    }
}

public struct DownloadedProvisioningProfile: Sendable, ReportableResult {
    public let path: String
    public let name: String
    public let profileType: String
    public let uuid: String?
    public let created: Bool
    public let installedPath: String?

    public var report: StepResultReport {
        StepResultReport(lines: ["profile: \(name) (\(profileType))", "file: \(path)"] + (installedPath.map { ["installed: \($0)"] } ?? []),
                         json: .object([("path", .string(path)), ("name", .string(name)), ("profile_type", .string(profileType)),
                                        ("uuid", uuid.map(JSONValue.string) ?? .null), ("created", .bool(created)),
                                        ("installed_path", installedPath.map(JSONValue.string) ?? .null)]))
    }
}

/// fastlane's Apple-ID sign-in (`username:`, `FASTLANE_USER`, `FASTLANE_PASSWORD`, `FASTLANE_SESSION`),
/// which lanes does not do: App Store Connect's API takes a key, and a key is what CI should use.
package enum AppleIDSignIn {
    package static let variables = ["FASTLANE_USER", "FASTLANE_PASSWORD", "FASTLANE_SESSION", "FASTLANE_APPLE_APPLICATION_SPECIFIC_PASSWORD"]

    /// What to do instead, naming the variables that were set (never their values).
    package static func answer(set names: [String]) -> String {
        "\(names.joined(separator: ", ")) \(names.count == 1 ? "is" : "are") fastlane's Apple-ID sign-in, which lanes does not do: "
            + "make an API key in App Store Connect (Users and Access > Integrations > App Store Connect API, role App Manager), "
            + "keep its AuthKey_ID.p8, and set its Key ID, Issuer ID and key as below (docs/appstore.md)"
    }
}
