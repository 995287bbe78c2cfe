import Foundation
import Lanes
import LanesTestSupport
import Testing
@testable import LanesCLI

/// Issue 20: `lanes upload`, `lanes xcode set` and `lanes xcode provision` take their steps' options
/// as flags derived from the declarations, so a renamed option renames its flag and a command that
/// fills an option itself names one the step declares.
@Suite struct StepFrontDoorTests {
    static let doors = UploadCommand.doors + [XcodeSetCommand.door, XcodeProvisionCommand.door]

    @Test func everyOptionACommandFillsItselfIsDeclaredByItsStep() {
        for door in Self.doors {
            let declared = Set(door.step.info.options.map(\.name))
            #expect(door.fixed.isSubset(of: declared), "\(door.step.info.id) no longer declares \(door.fixed.subtracting(declared))")
        }
    }

    @Test func flagsAreTheOptionNamesAndTheHelpIsTheirSummaries() throws {
        let upload = UploadCommand.doors[0]
        #expect(try upload.options(from: ["--part-size-mib", "8", "--virtual-hosted", "--region=eu-west-1"])
                == ["part_size_mib:8", "virtual_hosted:true", "region:eu-west-1"])
        let help = StepFrontDoor.help(Self.doors)
        for door in Self.doors {
            for option in door.flagOptions {
                #expect(help.contains(StepFrontDoor.flag(for: option.name) + " ") && help.contains(option.summary), "\(option.name)")
            }
        }
        // Options filled by the command and secrets are not flags.
        #expect(!help.contains("--file ") && !help.contains("--xcodeproj "))
    }

    @Test func anUnknownOrStaleFlagIsAUsageErrorNamingTheRealOnes() throws {
        let error = #expect(throws: LanesError.self) { try UploadCommand.doors[0].options(from: ["--part-size", "8"]) }
        #expect(error?.kind == .usage)
        #expect(error?.hint?.contains("--part-size-mib") == true)
        let (options, assignments) = try XcodeSetCommand.door.parse(["--target", "App", "SWIFT_VERSION=6.0", "--build-configuration=Release", "A=B"])
        #expect(options == ["target:App", "build_configuration:Release"])
        #expect(assignments == ["SWIFT_VERSION=6.0", "A=B"])
    }
}

/// The upload step's credentials are its options: `step_started` names where each came from and
/// masks the value, which appears nowhere in the output.
@Suite struct UploadCredentialOptionTests {
    @Test func credentialsShowTheirSourcesMasked() throws {
        let folder = LanesProcess.temporaryDirectory("upload-credentials")
        let file = folder.appendingPathComponent("app.txt")
        try "payload".write(to: file, atomically: true, encoding: .utf8)
        let token = "tok-\(UInt64.random(in: 1...UInt64.max))"
        let result = try LanesProcess().run(["upload", file.path, "--to", folder.appendingPathComponent("store").path, "--json"],
                                            in: folder, extraEnvironment: ["LANES_HTTP_TOKEN": token, "AWS_SECRET_ACCESS_KEY": token + "x"])
        try #require(result.status == 0, "\(result.output)")
        #expect(!result.output.contains(token))
        let started = try #require(result.standardOutput.split(separator: "\n").first { $0.contains("\"step_started\"") })
        let event = try #require(try JSONSerialization.jsonObject(with: Data(started.utf8)) as? [String: Any])
        let options = try #require(event["options"] as? [String: [String: String]])
        #expect(options["http_token"]?["source"] == "$LANES_HTTP_TOKEN")
        #expect(options["aws_secret_access_key"]?["source"] == "$AWS_SECRET_ACCESS_KEY")
        #expect(options["http_token"]?["value"]?.contains("tok-") == false)
    }
}
