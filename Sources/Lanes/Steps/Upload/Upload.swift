import LanesUpload

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
    @StepOption("region", "S3 region", env: "AWS_REGION")
    var region: String?
    @StepOption("profile", "Profile in ~/.aws/credentials", env: "AWS_PROFILE")
    var profile: String?
    @StepOption("virtual_hosted", "Address the bucket as a host name instead of a path", default: false)
    var virtualHosted: Bool
    @StepOption("part_size_mib", "S3 multipart part size in MiB (at least 5)", default: 64)
    var partSize: Int
    @StepOption("concurrency", "Parts in flight at once", default: 4)
    var concurrency: Int
    @StepOption("checksum", "What S3 verifies on every PUT: sha256 (the signed payload hash) or md5 (Content-MD5)", default: .sha256)
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
                              ("LANES_HTTP_USER", httpUser), ("LANES_HTTP_PASSWORD", httpPassword?.value)] {
            values[name] = value ?? ""
        }
        return values
    }

    public var banner: String { "Upload \(file ?? "the lane's build") to \(to)" }

    public func run(in context: StepContext) async throws -> UploadReceipt {
        guard partSize >= 5 else { throw LanesError(.usage, "upload: part_size_mib must be at least 5 (S3's minimum part size)") }
        guard (1...32).contains(concurrency) else { throw LanesError(.usage, "upload: concurrency must be between 1 and 32") }
        let path = try context.artifactToShip(file, step: "upload")
        var target = try UploadDestination(parsing: to)
        if case .directory(let folder) = target { target = .directory(path: context.resolve(folder)) }
        if case .firebase = target { throw LanesError(.usage, "upload: use firebase_app_distribution for Firebase") }
        if case .testFlight = target { throw LanesError(.usage, "upload: use upload_to_testflight for TestFlight") }
        let settings = UploadSettings(s3Endpoint: endpoint, s3Region: region, s3Profile: profile,
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
    case sha256, md5
}

/// `firebase_app_distribution`: the successor of the founding workflow's `crashlytics(...)`: uploads the
/// .ipa (or .apk/.aab) to Firebase App Distribution, waits for processing, sets the release notes and
/// sends it to testers and groups. The service account comes from FIREBASE_SERVICE_ACCOUNT (a path or
/// the JSON itself) or GOOGLE_APPLICATION_CREDENTIALS.
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

    public init() {}

    public var banner: String { "Distribute \(ipaPath ?? "the lane's build") with Firebase App Distribution" }

    public func run(in context: StepContext) async throws -> UploadReceipt {
        let path = try context.artifactToShip(ipaPath, step: "firebase_app_distribution")
        let settings = UploadSettings(firebase: FirebaseReleaseOptions(releaseNotes: releaseNotes, testers: testers, groups: groups))
        let progress = StepLogProgress(log: context.log), appID = self.appID
        return try await context.withUploads { uploads in
            try uploads.upload(file: path, to: .firebase(appID: appID), settings: settings, progress: progress)
        }
    }
}

/// `upload_to_testflight`: App Store Connect's build-upload flow (an ES256 API key from ASC_KEY_ID,
/// ASC_ISSUER_ID and ASC_PRIVATE_KEY), then waits for processing.
public struct UploadToTestFlight: Step {
    public typealias Output = UploadReceipt

    public static let definition = StepDefinition(
        id: "upload_to_testflight",
        summary: "Upload a build to App Store Connect for TestFlight and wait for processing",
        category: .upload,
        examples: [StepExample(
            swift: #"try await uploadToTestflight(ipaPath: "build/Brewer.ipa", appleID: "1234567890", appVersion: "1.4.0", buildNumber: "42")"#,
            commandLine: ["ipa_path:build/Brewer.ipa", "apple_id:1234567890", "app_version:1.4.0", "build_number:42"],
            environment: ["ASC_KEY_ID", "ASC_ISSUER_ID", "ASC_PRIVATE_KEY"])]
    )

    @StepOption("ipa_path", "The .ipa (default: what build_app made in this lane)")
    var ipaPath: String?
    @StepOption("apple_id", "The app's Apple id in App Store Connect", env: "ASC_APP_ID")
    var appleID: String
    @StepOption("app_version", "The build's CFBundleShortVersionString (default: read from the .ipa build_app made)")
    var appVersion: String?
    @StepOption("build_number", "The build's CFBundleVersion (default: read from the .ipa build_app made)")
    var buildNumber: String?
    @StepOption("wait_for_processing", "Wait until App Store Connect has processed the build", default: true)
    var waitForProcessing: Bool

    public init() {}

    public var banner: String { "Upload \(ipaPath ?? "the lane's build") to TestFlight" }

    public func run(in context: StepContext) async throws -> UploadReceipt {
        let path = try context.artifactToShip(ipaPath, step: "upload_to_testflight")
        let built = context.values[BuiltAppValue.self]
        let options = TestFlightBuildOptions(version: appVersion ?? built?.version, buildNumber: buildNumber ?? built?.build,
                                             waitForProcessing: waitForProcessing)
        let progress = StepLogProgress(log: context.log), appleID = self.appleID
        return try await context.withUploads { uploads in
            try uploads.upload(file: path, to: .testFlight(appID: appleID), settings: UploadSettings(testFlight: options),
                               progress: progress)
        }
    }
}
