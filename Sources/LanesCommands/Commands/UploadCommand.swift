import ArgumentParser
#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif
import Lanes
import LanesPlatform
import LanesUpload

/// `lanes upload FILE --to DESTINATION`: sends an artifact to a local store, an HTTP server, S3,
/// Firebase App Distribution or App Store Connect (see docs/upload.md for the forms and variables).
///
/// The command is a shell spelling of the `upload`, `firebase_app_distribution` and
/// `upload_to_testflight` steps: its flags are their options (`StepFrontDoor`), and it runs the step
/// like `lanes run`, so validation, redaction, output and `--json` are the steps' own.
struct UploadCommand: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "upload",
            abstract: "Upload an artifact to a directory, an http(s) URL, S3, Firebase App Distribution or TestFlight.",
            discussion: HelpRequest.isAsked ? discussion : "")
    }

    /// Built only for help (`HelpRequest`): the steps' options come from reflection.
    static let discussion = """
        DESTINATION is a directory or file:///dir (content-addressed store with a JSON manifest), \
        http(s)://host/path (PUT; LANES_HTTP_TOKEN or LANES_HTTP_USER/LANES_HTTP_PASSWORD), \
        s3://BUCKET/KEY (credentials as the AWS CLI finds them: AWS_ACCESS_KEY_ID/AWS_SECRET_ACCESS_KEY[/AWS_SESSION_TOKEN], \
        --profile of ~/.aws/credentials or ~/.aws/config with credential_process, web identity or an assumed role, container credentials, IMDS; temporary keys are renewed during the upload), \
        firebase://APP_ID (FIREBASE_SERVICE_ACCOUNT or GOOGLE_APPLICATION_CREDENTIALS), \
        testflight://APPLE_ID (APP_STORE_CONNECT_API_KEY_KEY_ID, _ISSUER_ID, _KEY or _KEY_FILEPATH; ASC_* work too). A KEY or URL ending in / gets the file name. \
        HTTPS_PROXY, HTTP_PROXY and NO_PROXY are read as curl reads them.

        \(StepFrontDoor.help(doors))
        """

    @Argument(help: "The file to upload.") var file: String
    @Option(name: .long, help: ArgumentHelp("Where to upload (see below).", valueName: "DESTINATION")) var to: String
    @Flag(help: "JSON events instead of text; the receipt is the `result` event.") var json = false
    @Argument(parsing: .allUnrecognized, help: ArgumentHelp("The steps' options as flags (below).", valueName: "--OPTION VALUE"))
    var stepOptions: [String] = []

    /// The steps behind the command, each with the options the command fills itself.
    static let doors = [
        StepFrontDoor(step: Upload.self, fixed: ["file", "to"]),
        StepFrontDoor(step: FirebaseAppDistribution.self, fixed: ["ipa_path", "app_id"]),
        StepFrontDoor(step: UploadToTestFlight.self, fixed: ["ipa_path", "apple_id"]),
    ]

    func run() async throws {
        let (step, options) = try stepAndOptions()
        await SingleStepRun.main(step, arguments: options + (json ? ["--json"] : []))
    }

    /// The step for the destination, and the command line as its `key:value` options.
    func stepAndOptions() throws -> (any Step.Type, [String]) {
        let destination = try UploadDestination(parsing: to)
        let (door, fixed): (StepFrontDoor, [String]) = switch destination {
        case .firebase(let appID): (Self.doors[1], ["ipa_path:\(file)", "app_id:\(appID)"])
        case .testFlight(let appID): (Self.doors[2], ["ipa_path:\(file)", "apple_id:\(appID)"])
        case .directory, .http, .s3: (Self.doors[0], ["file:\(file)", "to:\(to)"])
        }
        return (door.step, fixed + (try door.options(from: stepOptions)))
    }
}
