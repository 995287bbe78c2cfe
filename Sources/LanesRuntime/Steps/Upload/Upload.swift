import LanesUpload
import LanesAppStoreConnect

/// `upload`: sends an artifact to a local content-addressed store (the default), an `http(s)://` URL
/// (PUT with checksum headers), or `s3://BUCKET/KEY` (SigV4, multipart with server-verified checksums,
/// resume, abort on failure). Credentials are options of the step, read from their environment
/// variables (docs/upload.md), so `step_started` shows where each came from (masked).
public struct Upload: Step {
    public typealias Output = UploadReceipt

    public static let definition = StepDefinition(
        id: "upload",
        summary: "Upload an artifact to a local store, an HTTP server (PUT) or S3",
        category: .upload,
        examples: [
            StepExample(swift: #"try await upload(to: ".lanes/store")"#, commandLine: ["file:build/brewer-1.0.tar.gz", "to:.lanes/store"]),
            StepExample(swift: #"try await upload(file: "build/Brewer.ipa", to: "s3://brewer-builds/staging/", region: "eu-west-1")"#,
                        commandLine: ["file:build/Brewer.ipa", "to:s3://brewer-builds/staging/", "region:eu-west-1"],
                        environment: ["AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"]),
        ]
    )

    @StepOption("file", "The file (default: what build_app or build_swift_package made in this lane)")
    var file: String?
    @StepOption("to", "A folder or file:// URL, an http(s):// URL, or s3://BUCKET/KEY (a KEY ending in / gets the file name)",
                env: "LANES_UPLOAD_DESTINATION", default: ".lanes/store")
    var to: String
    @StepOption("endpoint", "S3-compatible endpoint URL (default AWS)", env: "AWS_ENDPOINT_URL")
    var endpoint: String?
    @StepOption("region", "S3 region (else default_region, else us-east-1)", env: "AWS_REGION")
    var region: String?
    @StepOption("default_region", "S3 region when region is unset, as the AWS CLI reads it", env: "AWS_DEFAULT_REGION")
    var defaultRegion: String?
    @StepOption("profile", "AWS profile in ~/.aws/credentials or ~/.aws/config; given as an argument it skips the keys in the environment, from AWS_PROFILE it comes after them (as the AWS CLI)", env: "AWS_PROFILE")
    var profile: String?
    @StepOption("virtual_hosted", "Address the bucket as a host name instead of a path", default: false)
    var virtualHosted: Bool
    @StepOption("part_size_mib", "S3 multipart part size in MiB (at least 5)", default: 64)
    var partSize: Int
    @StepOption("concurrency", "Parts in flight at once", default: 4)
    var concurrency: Int
    @StepOption("checksum", "What S3 verifies on every PUT: md5 (Content-MD5) or sha256 (the signed payload hash)", default: .md5)
    var checksum: UploadChecksum
    @StepOption("configuration", "The build configuration a local store's manifest records")
    var configuration: String?
    @StepOption("aws_access_key_id", "S3 access key id (else the profile's)", env: "AWS_ACCESS_KEY_ID", secret: true)
    var accessKeyID: Secret?
    @StepOption("aws_secret_access_key", "S3 secret access key", env: "AWS_SECRET_ACCESS_KEY", secret: true)
    var secretAccessKey: Secret?
    @StepOption("aws_session_token", "S3 session token of temporary credentials", env: "AWS_SESSION_TOKEN", secret: true)
    var sessionToken: Secret?
    @StepOption("http_token", "Bearer token for an http(s) destination", env: "LANES_HTTP_TOKEN", secret: true)
    var httpToken: Secret?
    @StepOption("http_user", "User for an http(s) destination (Basic authentication)", env: "LANES_HTTP_USER")
    var httpUser: String?
    @StepOption("http_password", "Password of http_user", env: "LANES_HTTP_PASSWORD", secret: true)
    var httpPassword: Secret?

    public init() {}

    /// The credentials as this step resolved them (argument, else their variable), in the names the
    /// upload library knows; a variable the step did not resolve is not passed on.
    var credentials: [String: String] {
        var values: [String: String] = [:]
        for (name, value) in [("AWS_ACCESS_KEY_ID", accessKeyID?.value), ("AWS_SECRET_ACCESS_KEY", secretAccessKey?.value),
                              ("AWS_SESSION_TOKEN", sessionToken?.value), ("LANES_HTTP_TOKEN", httpToken?.value),
                              ("LANES_HTTP_USER", httpUser), ("LANES_HTTP_PASSWORD", httpPassword?.value),
                              ("AWS_PROFILE", $profile == .argument ? nil : profile)] {
            values[name] = value ?? ""
        }
        return values
    }

    /// The profile named as an argument (`profile:`, `--profile`), which skips the environment's keys
    /// as the AWS CLI's `--profile` does; a profile from `$AWS_PROFILE` comes after them.
    var namedProfile: String? { $profile == .argument ? profile : nil }

    public var banner: String { "Upload \(file ?? "the lane's build") to \(to)" }

    public func run(in context: StepContext) async throws -> UploadReceipt {
        guard partSize >= 5 else { throw LanesError(.usage, "upload: part_size_mib must be at least 5 (S3's minimum part size)") }
        guard (1...32).contains(concurrency) else { throw LanesError(.usage, "upload: concurrency must be between 1 and 32") }
        let path = try context.artifactToShip(file, step: "upload")
        var target = try UploadDestination(parsing: to)
        if case .directory(let folder) = target { target = .directory(path: context.resolve(folder)) }
        if case .firebase = target { throw LanesError(.usage, "upload: use firebase_app_distribution for Firebase") }
        if case .testFlight = target { throw LanesError(.usage, "upload: use upload_to_testflight for TestFlight") }
        let settings = UploadSettings(s3Endpoint: endpoint, s3Region: region ?? defaultRegion, s3Profile: namedProfile,
                                      s3Addressing: virtualHosted ? .virtualHosted : nil,
                                      s3: S3UploadOptions(partSize: Int64(partSize) << 20, concurrency: concurrency,
                                                          checksum: checksum == .md5 ? .md5 : .sha256))
        let metadata = context.artifactMetadata(configuration: configuration)
        let progress = StepLogProgress(log: context.log), destination = target
        let receipt = try await context.withUploads(credentials: credentials) { uploads in
            try uploads.upload(file: path, to: destination, settings: settings, metadata: metadata, progress: progress)
        }
        context.log.line("uploaded \(receipt.size) bytes to \(receipt.location)")
        return receipt
    }
}

/// The checksum S3 verifies on every part.
public enum UploadChecksum: String, Sendable, CaseIterable, OptionValue {
    case md5, sha256
}

/// `firebase_app_distribution`: the successor of the founding workflow's `crashlytics(...)`: uploads the
/// .ipa (or .apk/.aab) to Firebase App Distribution, waits for processing, sets the release notes and
/// sends it to testers and groups. The service account is an option (`service_account`, a path or the
/// JSON itself, from FIREBASE_SERVICE_ACCOUNT; else `service_credentials_file`, from
/// GOOGLE_APPLICATION_CREDENTIALS), so `step_started` says where it came from, masked.
public struct FirebaseAppDistribution: Step {
    public typealias Output = UploadReceipt

    public static let definition = StepDefinition(
        id: "firebase_app_distribution",
        summary: "Send a build to testers through Firebase App Distribution",
        category: .upload,
        examples: [StepExample(
            swift: #"try await firebaseAppDistribution(ipaPath: "build/Brewer.ipa", appID: "1:1234567890:ios:0a1b2c3d4e5f", releaseNotes: "Nightly", groups: ["qa"])"#,
            commandLine: ["ipa_path:build/Brewer.ipa", "app_id:1:1234567890:ios:0a1b2c3d4e5f", "release_notes:Nightly", "groups:qa"],
            environment: ["FIREBASE_SERVICE_ACCOUNT"])]
    )

    @StepOption("ipa_path", "The .ipa, .apk or .aab (default: what build_app made in this lane)")
    var ipaPath: String?
    @StepOption("app_id", "The Firebase app id (1:NUMBER:ios:HEX)", env: "FIREBASE_APP_ID")
    var appID: String
    @StepOption("release_notes", "Release notes shown to testers")
    var releaseNotes: String?
    @StepOption("testers", "Tester emails", default: [])
    var testers: [String]
    @StepOption("groups", "Tester group aliases", default: [])
    var groups: [String]
    @StepOption("service_account", "The service account key: a JSON key file's path or the JSON itself",
                env: "FIREBASE_SERVICE_ACCOUNT", secret: true)
    var serviceAccount: Secret?
    @StepOption("service_credentials_file", "A service account JSON key file, used when service_account is absent",
                env: "GOOGLE_APPLICATION_CREDENTIALS")
    var serviceCredentialsFile: String?

    public init() {}

    /// The resolved account for LanesUpload, under the variables it reads ("" = not given).
    var credentials: [String: String] {
        ["FIREBASE_SERVICE_ACCOUNT": serviceAccount?.value ?? "", "GOOGLE_APPLICATION_CREDENTIALS": serviceCredentialsFile ?? ""]
    }

    public var banner: String { "Distribute \(ipaPath ?? "the lane's build") with Firebase App Distribution" }

    public func run(in context: StepContext) async throws -> UploadReceipt {
        let path = try context.artifactToShip(ipaPath, step: "firebase_app_distribution")
        let settings = UploadSettings(firebase: FirebaseReleaseOptions(releaseNotes: releaseNotes, testers: testers, groups: groups))
        let progress = StepLogProgress(log: context.log), appID = self.appID
        return try await context.withUploads(credentials: credentials) { uploads in
            try uploads.upload(file: path, to: .firebase(appID: appID), settings: settings, progress: progress)
        }
    }
}

/// `upload_to_testflight` (fastlane's pilot, testflight): App Store Connect's build-upload flow, then, on the
/// processed build, "What to Test", groups, export compliance, expiry of older builds and beta app
/// review. The key is the lane's (`app_store_connect_api_key`) or the environment's.
///
/// Left to its defaults it does what pilot does (fastlane/actions/upload_to_testflight.rb,
/// pilot/build_manager.rb): it uploads the .ipa or .pkg build_app made in this lane, as the platform
/// that package is for (the .ipa's DTPlatformName; osx for a .pkg), with the version and build
/// number read from it; export compliance is answered `false` when the build has no answer yet.
public struct UploadToTestFlight: Step {
    public typealias Output = UploadReceipt

    public static let definition = StepDefinition(
        id: "upload_to_testflight",
        summary: "Upload a build to TestFlight, set What to Test and send it to groups",
        category: .upload,
        examples: [StepExample(
            swift: #"try await uploadToTestflight(ipaPath: "build/Brewer.ipa", appIdentifier: "com.example.brewer", changelog: "Fixes the login crash", groups: ["QA"])"#,
            commandLine: ["ipa_path:build/Brewer.ipa", "app_identifier:com.example.brewer", "changelog:Fixes the login crash", "groups:QA"],
            environment: [AppStoreConnectKey.Variable.keyID, AppStoreConnectKey.Variable.issuerID, AppStoreConnectKey.Variable.key]),
                   StepExample(swift: #"try await uploadToTestflight(changelog: "Fixes the login crash")"#, commandLine: ["changelog:Fixes the login crash"],
                               environment: [AppStoreConnectKey.Variable.keyID, AppStoreConnectKey.Variable.issuerID, AppStoreConnectKey.Variable.key])],
        aliases: ["pilot", "testflight"],
        ignoredOptions: [
            "username": "lanes signs in to App Store Connect with an API key only (app_store_connect_api_key; see docs/appstore.md)",
            "team_name": "an API key belongs to one team",
            "itc_provider": "lanes uploads through App Store Connect's API, not the Transporter",
            "provider_public_id": "lanes uploads through App Store Connect's API, not altool",
        ],
        needsAppStoreConnectKey: true
    )

    @StepOption("ipa_path", "The .ipa (default: what build_app made in this lane)", fastlaneEnv: ["PILOT_IPA"], aliases: ["ipa"])
    var ipaPath: String?
    @StepOption("pkg", "A macOS .pkg to upload instead (default: what build_app made in this lane)", fastlaneEnv: ["PILOT_PKG"])
    var pkg: String?
    @StepOption("app_identifier", "The app's bundle id (default: the lane's Configuration's, else the package's)", env: "APP_IDENTIFIER",
                fastlaneEnv: ["PILOT_APP_IDENTIFIER", "TESTFLIGHT_APP_IDENTITIFER"], appfile: .appIdentifier)
    var appIdentifier: String?
    @StepOption("apple_id", "The app's Apple id in App Store Connect (skips the bundle id lookup)", env: "ASC_APP_ID",
                fastlaneEnv: ["PILOT_APPLE_ID", "TESTFLIGHT_APPLE_ID"])
    var appleID: String?
    @StepOption("app_version", "The build's CFBundleShortVersionString (default: read from the package)", fastlaneEnv: ["PILOT_APP_VERSION"])
    var appVersion: String?
    @StepOption("build_number", "The build's CFBundleVersion (default: read from the package)", fastlaneEnv: ["PILOT_BUILD_NUMBER"])
    var buildNumber: String?
    @StepOption("app_platform", "ios, osx, appletvos or xros (default: the package's)", env: "PILOT_PLATFORM")
    var platform: String?
    @StepOption("changelog", "What to Test, for changelog_locale", env: "PILOT_CHANGELOG")
    var changelog: String?
    @StepOption("changelog_locale", "The locale of changelog", default: "en-US")
    var changelogLocale: String
    @StepOption("groups", "Beta groups to add the build to (names)", env: "PILOT_GROUPS", default: [])
    var groups: [String]
    @StepOption("distribute_external", "Submit the build to beta app review for external testers", env: "PILOT_DISTRIBUTE_EXTERNAL", default: false)
    var distributeExternal: Bool
    @StepOption("skip_submission", "Only upload: set no What to Test and distribute to nobody", fastlaneEnv: ["PILOT_SKIP_SUBMISSION"], default: false)
    var skipSubmission: Bool
    @StepOption("localized_build_info", "What to Test per locale, as LOCALE=TEXT (default=TEXT: every other locale the build has)", default: [])
    var localizedBuildInfo: [String]
    @StepOption("notify_external_testers", "Whether TestFlight emails external testers about this build (the build's autoNotifyEnabled; unset: App Store Connect's default, which notifies)", env: "PILOT_NOTIFY_EXTERNAL_TESTERS")
    var notifyExternalTesters: Bool?
    @StepOption("beta_app_review_info", "Beta app review details as key=value (contact_email, contact_first_name, contact_last_name, contact_phone, demo_account_name, demo_account_required, notes)", default: [])
    var betaAppReviewInfo: [String]
    @StepOption("demo_account_required", "Whether beta app review needs the demo account (beta_app_review_info's demo_account_required)",
                fastlaneEnv: ["DEMO_ACCOUNT_REQUIRED"])
    var demoAccountRequired: Bool?
    @StepOption("demo_account_password", "The demo account's password for beta app review", env: "PILOT_DEMO_ACCOUNT_PASSWORD", secret: true)
    var demoAccountPassword: Secret?
    @StepOption("uses_non_exempt_encryption", "The export-compliance answer App Store Connect asks for (pilot answers false for a processed build without one)",
                env: "PILOT_USES_NON_EXEMPT_ENCRYPTION")
    var usesNonExemptEncryption: Bool?
    @StepOption("expire_previous_builds", "Expire the app's earlier builds", env: "PILOT_EXPIRE_PREVIOUS_BUILDS", default: false)
    var expirePreviousBuilds: Bool
    @StepOption("skip_waiting_for_build_processing", "Return once the upload is committed (with changelog: once the build appears and What to Test is set)", env: "PILOT_SKIP_WAITING_FOR_BUILD_PROCESSING", default: false)
    var skipWaiting: Bool
    @StepOption("wait_processing_interval", "Seconds between looks at the build's processing state", env: "PILOT_WAIT_PROCESSING_INTERVAL", default: 30)
    var waitProcessingInterval: Int
    @StepOption("wait_processing_timeout_duration", "Seconds processing may take before the step fails", env: "PILOT_WAIT_PROCESSING_TIMEOUT_DURATION", default: 3600)
    var processingTimeout: Int

    public init() {}

    public var banner: String { "Upload \(ipaPath ?? pkg ?? "the lane's build") to TestFlight" }

    public func run(in context: StepContext) async throws -> UploadReceipt {
        let step = Self.definition.id
        guard let package = try ShippedPackage.find(ipa: ipaPath, pkg: pkg, platform: self.platform, step: step, context: context) else {
            throw LanesError(.usage, "\(step): no ipa or pkg given, and build_app made none in this lane",
                             hint: "pass ipa: (or pkg:), or run build_app first")
        }
        let platform = try appStorePlatform(package.platform, step: step)
        var review: [String: String] = [:]
        for pair in betaAppReviewInfo {
            let parts = pair.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, TestFlightDistribution.reviewInfoKeys[parts[0]] != nil else {
                throw LanesError(.usage, "\(step): beta_app_review_info entry '\(parts.first ?? pair)' is not KEY=VALUE with a known key",
                                 hint: "keys: \(TestFlightDistribution.reviewInfoKeys.keys.filter { $0 != "demo_account_password" }.sorted().joined(separator: ", "))")
            }
            // A password in this plain option would already be in the step's events: it has its own secret option.
            guard parts[0] != "demo_account_password" else {
                throw LanesError(.usage, "\(step): the demo account password goes in demo_account_password (a secret), not beta_app_review_info",
                                 hint: "set PILOT_DEMO_ACCOUNT_PASSWORD, and change the password: it was shown in this step's options")
            }
            review[parts[0]] = parts[1]
        }
        if let demoAccountRequired { review["demo_account_required"] = String(demoAccountRequired) }
        if let password = demoAccountPassword?.value {
            context.environment.redactor.register(password)
            review["demo_account_password"] = password
        }
        // pilot's localized_build_info, as LOCALE=TEXT entries; `changelog` is its changelog_locale's.
        var whatToTest: [String: String] = [:]
        for entry in localizedBuildInfo {
            let parts = entry.split(separator: "=", maxSplits: 1).map(String.init)
            guard parts.count == 2, !parts[0].isEmpty else {
                throw LanesError(.usage, "\(step): localized_build_info entry '\(entry.prefix(40))' is not LOCALE=WHAT_TO_TEST", hint: "for example en-US=Try the new login")
            }
            whatToTest[parts[0]] = parts[1]
        }
        if let changelog { whatToTest[changelogLocale] = changelog }
        // skip_submission keeps pilot's metadata (What to Test, notification) and leaves out its
        // distribute_build: export compliance, groups, expiry, beta review.
        let distributes = !skipSubmission
        let distribution = TestFlightDistribution(
            changelog: whatToTest, groups: distributes ? groups : [], distributeExternal: distributes && distributeExternal,
            // pilot's set_export_compliance_if_needed answers its default, false, on a processed build.
            notifyExternalTesters: notifyExternalTesters,
            usesNonExemptEncryption: distributes ? usesNonExemptEncryption ?? (skipWaiting ? nil : false) : nil,
            expirePreviousBuilds: distributes && expirePreviousBuilds, betaAppReviewInfo: review, waitForProcessing: !skipWaiting,
            pollInterval: Double(waitProcessingInterval), processingTimeout: Double(processingTimeout))
        // As fastlane's pilot: skipping the wait still waits for the build to appear when there is What to Test to set;
        // the other distribution options need the processed build.
        let needsProcessedBuild = !groups.isEmpty || distributeExternal || notifyExternalTesters != nil || usesNonExemptEncryption != nil || expirePreviousBuilds
        if skipWaiting && needsProcessedBuild {
            throw LanesError(.usage, "\(step): groups, distribute_external, notify_external_testers, uses_non_exempt_encryption and expire_previous_builds need the processed build",
                             hint: "drop skip_waiting_for_build_processing, or those options")
        }
        let path = package.path
        guard let version = appVersion ?? package.version, let build = buildNumber ?? package.build else {
            throw LanesError(.usage, "\(step): the build's version and build number are unknown", hint: "pass app_version: and build_number:, or run build_app first")
        }
        let (client, appID) = try await context.appStoreConnectApp(appleID: appleID, bundleID: appIdentifier ?? package.bundleIdentifier, step: step)
        let (upload, processed) = try await context.uploadBuildToAppStoreConnect(
            client: client, appID: appID, path: path, version: version, build: build, platform: platform, wait: !skipWaiting,
            pollInterval: Double(waitProcessingInterval), timeout: Double(processingTimeout))
        var details = ["buildUpload": upload.uploadID, "md5": upload.md5, "parts": String(upload.parts), "state": "COMMITTED"]
        let log = context.log
        var target = processed
        if target == nil, !whatToTest.isEmpty {
            target = try await client.waitForBuild(appID: appID, version: version, buildNumber: build, platform: platform, uploadID: upload.uploadID,
                                                   pollInterval: Double(waitProcessingInterval), timeout: Double(processingTimeout),
                                                   waitForProcessing: false, progress: { log.line($0) })
        }
        if let found = target {
            let outcome = try await client.distribute(build: found, appID: appID, version: version, platform: platform, distribution,
                                                      progress: { log.line($0) })
            details.merge([
                "build": found.id, "state": found.attributes?.processingState ?? "VALID",
                "groups": outcome.groups.joined(separator: ","), "whatToTest": outcome.localizedLocales.joined(separator: ","),
                "expiredBuilds": String(outcome.expiredBuilds), "betaReview": outcome.submittedForReview ? "submitted" : "",
                "notifyExternalTesters": outcome.autoNotify.map { String($0) } ?? "",
            ]) { _, new in new }
        }
        return UploadReceipt(destination: "testflight://\(appID)", location: "buildUploads/\(upload.uploadID)", size: upload.size, sha256: nil, details: details)
    }
}
