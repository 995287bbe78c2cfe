import ArgumentParser
import FoundationEssentials
import Lanes
import LanesPlatform
import LanesUpload

/// `lanes upload FILE --to DESTINATION`: sends an artifact to a local store, an HTTP server, S3,
/// Firebase App Distribution or App Store Connect (see docs/upload.md for the forms and variables).
struct UploadCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "upload",
        abstract: "Upload an artifact to a directory, an http(s) URL, S3, Firebase App Distribution or TestFlight.",
        discussion: """
        DESTINATION is a directory or file:///dir (content-addressed store with a JSON manifest), \
        http(s)://host/path (PUT; LANES_HTTP_TOKEN or LANES_HTTP_USER/LANES_HTTP_PASSWORD), \
        s3://BUCKET/KEY (AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY[/AWS_SESSION_TOKEN] or --profile), \
        firebase://APP_ID (FIREBASE_SERVICE_ACCOUNT or GOOGLE_APPLICATION_CREDENTIALS), \
        testflight://APPLE_ID (ASC_KEY_ID, ASC_ISSUER_ID, ASC_PRIVATE_KEY). A KEY or URL ending in / gets the file name.
        """
    )

    @Argument(help: "The file to upload.") var file: String
    @Option(name: .long, help: ArgumentHelp("Where to upload (see below).", valueName: "DESTINATION")) var to: String
    @Option(help: ArgumentHelp("S3-compatible endpoint (default: AWS_ENDPOINT_URL, else AWS).", valueName: "URL")) var endpoint: String?
    @Option(help: ArgumentHelp("S3 region (default: AWS_REGION, AWS_DEFAULT_REGION, us-east-1).", valueName: "NAME")) var region: String?
    @Option(help: ArgumentHelp("Profile of ~/.aws/credentials (default: AWS_PROFILE).", valueName: "NAME")) var profile: String?
    @Flag(help: "S3: address the bucket as a host name (bucket.endpoint) instead of a path.") var virtualHosted = false
    @Option(help: ArgumentHelp("S3: part size in MiB for multipart uploads.", valueName: "MIB")) var partSize: Int = 64
    @Option(help: "S3/TestFlight: parts in flight at once.") var concurrency: Int = 4
    @Option(help: ArgumentHelp("S3: the checksum the server verifies on every PUT: sha256 (signed payload hash) or md5 (Content-MD5).",
                               valueName: "KIND")) var checksum: String = "sha256"
    @Option(help: "Firebase: release notes.") var releaseNotes: String?
    @Option(help: ArgumentHelp("Firebase: tester emails, comma-separated.", valueName: "EMAILS")) var testers: String?
    @Option(help: ArgumentHelp("Firebase: group aliases, comma-separated.", valueName: "ALIASES")) var groups: String?
    @Option(help: ArgumentHelp("TestFlight: the build's CFBundleShortVersionString.", valueName: "VERSION")) var appVersion: String?
    @Option(help: ArgumentHelp("TestFlight: the build's CFBundleVersion.", valueName: "NUMBER")) var buildNumber: String?
    @Option(help: "Local store: the lane recorded in the manifest.") var lane: String?
    @Option(help: "Local store: the build configuration recorded in the manifest.") var configuration: String?
    @Option(help: "Local store: the commit recorded in the manifest.") var commit: String?
    @Flag(help: "Print the receipt as JSON (sorted keys) and no progress.") var json = false

    func validate() throws {
        guard partSize >= 5 else { throw ValidationError("--part-size must be at least 5 (MiB), S3's minimum part size") }
        guard (1...32).contains(concurrency) else { throw ValidationError("--concurrency must be between 1 and 32") }
        guard ["sha256", "md5"].contains(checksum) else { throw ValidationError("--checksum must be sha256 or md5") }
    }

    func run() throws {
        let redactor = Redactor()
        let output = TextOutput.standardOutput(redactor)
        let errors = TextOutput.standardError(redactor)
        let environment = ProcessEnvironment.current()
        let settings = UploadSettings(
            s3Endpoint: endpoint, s3Region: region, s3Profile: profile, s3Addressing: virtualHosted ? .virtualHosted : nil,
            s3: S3UploadOptions(partSize: Int64(partSize) << 20, concurrency: concurrency, checksum: checksum == "md5" ? .md5 : .sha256),
            firebase: FirebaseReleaseOptions(releaseNotes: releaseNotes, testers: Self.list(testers), groups: Self.list(groups)),
            testFlight: TestFlightBuildOptions(version: appVersion, buildNumber: buildNumber, concurrency: concurrency))
        let http = HTTPClient(onRetry: { errors.writeLine("retrying: \($0)") })
        let uploads = Uploads(environment: environment, registerSecret: { redactor.register($0) }, http: http)
        do {
            let destination = try UploadDestination(parsing: to)
            let receipt = try uploads.upload(file: file, to: destination, settings: settings,
                                             metadata: ArtifactMetadata(lane: lane, configuration: configuration, commit: commit),
                                             progress: json ? SilentProgress() : progressReporter(writingTo: 2))
            if json {
                let encoder = JSONEncoder()
                encoder.outputFormatting = [.sortedKeys, .prettyPrinted, .withoutEscapingSlashes]
                output.writeLine(String(decoding: try encoder.encode(receipt), as: UTF8.self))
            } else {
                output.writeLine("uploaded \(receipt.size) bytes to \(receipt.location)")
                for key in receipt.details.keys.sorted() where !(receipt.details[key] ?? "").isEmpty {
                    output.writeLine("  \(key): \(receipt.details[key]!)")
                }
                if let sha = receipt.sha256 { output.writeLine("  sha256: \(sha)") }
            }
        } catch let error as UploadError {
            throw LanesError(error.lanesKind, redactor.redact(error.message), hint: error.hint.map(redactor.redact))
        }
    }

    static func list(_ text: String?) -> [String] {
        (text ?? "").split(separator: ",").map { String($0).trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
    }
}
