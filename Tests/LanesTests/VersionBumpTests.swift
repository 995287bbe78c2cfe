import Testing
@testable import LanesRuntime

@Suite(.timeLimit(.minutes(3))) struct VersionBumpTests {
    @Test(arguments: [("1.4.2", BumpType.patch, "1.4.3"), ("1.4.2", .minor, "1.5.0"), ("1.4.2", .major, "2.0.0"),
                      ("2", .minor, "2.1.0"), ("1.9", .patch, "1.9.1"), ("0.9.9", .minor, "0.10.0")])
    func bumpsLikeFastlane(current: String, bump: BumpType, expected: String) throws {
        #expect(try IncrementVersionNumber.bumped(current, bump) == expected)
    }

    @Test(arguments: ["1.4.beta", "", "1.2.3.4", "-1.0"])
    func refusesWhatIsNotANumberedVersion(current: String) {
        #expect(throws: LanesError.self) { try IncrementVersionNumber.bumped(current, .patch) }
    }

    @Test func failReportsTheFileWithoutItsModule() {
        let failure = LaneFailureMessage(message: "no", file: "Lanefile/Lanefile.swift", line: 12)
        #expect(failure.description == "Lanefile.swift:12: no" && failure.lanesKind == .laneFailure)
    }
}
