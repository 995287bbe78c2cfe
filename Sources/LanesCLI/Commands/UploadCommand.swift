import ArgumentParser
import FoundationEssentials
import Lanes
import LanesPlatform
import LanesUpload

/// `lanes upload FILE --to DESTINATION`: sends an artifact to a local store, an HTTP server, S3,
/// Firebase App Distribution or App Store Connect (see docs/upload.md for the forms and variables).
///
/// The command is a shell spelling of the `upload`, `firebase_app_distribution` and
/// `upload_to_testflight` steps: it maps its flags onto their options and runs the step like
/// `lanes run`, so validation, redaction, output and `--json` are the steps' own.
struct UploadCommand: AsyncParsableCommand {
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
    @Option(help: ArgumentHelp("S3: part size in MiB for multipart uploads.", valueName: "MIB")) var partSize: Int?
    @Option(help: "S3: parts in flight at once.") var concurrency: Int?
    @Option(help: ArgumentHelp("S3: the checksum the server verifies on every PUT: sha256 (signed payload hash) or md5 (Content-MD5).",
                               valueName: "KIND")) var checksum: String?
    @Option(help: "Firebase: release notes.") var releaseNotes: String?
    @Option(help: ArgumentHelp("Firebase: tester emails, comma-separated.", valueName: "EMAILS")) var testers: String?
    @Option(help: ArgumentHelp("Firebase: group aliases, comma-separated.", valueName: "ALIASES")) var groups: String?
    @Option(help: ArgumentHelp("TestFlight: the build's CFBundleShortVersionString.", valueName: "VERSION")) var appVersion: String?
    @Option(help: ArgumentHelp("TestFlight: the build's CFBundleVersion.", valueName: "NUMBER")) var buildNumber: String?
    @Option(help: "Local store: the build configuration recorded in the manifest.") var configuration: String?
    @Flag(help: "JSON events instead of text; the receipt is the `result` event.") var json = false

    func run() async throws {
        let (step, options) = try stepAndOptions()
        await SingleStepRun.main(step, arguments: options + (json ? ["--json"] : []))
    }

    /// The step for the destination, and the flags as its `key:value` options.
    func stepAndOptions() throws -> (any Step.Type, [String]) {
        func pairs(_ values: [(String, String?)]) -> [String] { values.compactMap { key, value in value.map { "\(key):\($0)" } } }
        let destination = try UploadDestination(parsing: to)
        switch destination {
        case .firebase(let appID):
            return (FirebaseAppDistribution.self, pairs([("ipa_path", file), ("app_id", appID), ("release_notes", releaseNotes),
                                                         ("testers", testers), ("groups", groups)]))
        case .testFlight(let appID):
            return (UploadToTestFlight.self, pairs([("ipa_path", file), ("apple_id", appID), ("app_version", appVersion),
                                                    ("build_number", buildNumber)]))
        case .directory, .http, .s3:
            return (Upload.self, pairs([("file", file), ("to", to), ("endpoint", endpoint), ("region", region), ("profile", profile),
                                        ("virtual_hosted", virtualHosted ? "true" : nil), ("part_size_mib", partSize.map(String.init)),
                                        ("concurrency", concurrency.map(String.init)), ("checksum", checksum),
                                        ("configuration", configuration)]))
        }
    }
}
