import Lanes
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
