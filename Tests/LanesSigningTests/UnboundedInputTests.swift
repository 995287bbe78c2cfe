import Testing

/// Finding 18 of issue 10: an endless or huge input is refused with a clear error, not read whole.
@Suite("Unbounded input", .timeLimit(.minutes(10)), .tags(.live))
struct UnboundedInputTests {
    @Test(arguments: [["cert", "info", "/dev/zero"], ["profile", "info", "/dev/zero"]])
    func devZeroIsRefusedAsTooLarge(arguments: [String]) async throws {
        let result = try await LanesBinary.run(arguments, environment: [:])
        #expect(result.status == 78, "\(result.errors)")
        #expect(result.errors.contains("/dev/zero"))
        // Refused before reading: a device is not a regular file (issue 21; a FIFO would hang).
        #expect(result.errors.contains("not a regular file"), "\(result.errors)")
    }
}

/// Finding 22 of issue 10: an empty schedule is named as such, not "never fires".
@Suite("Cron messages", .timeLimit(.minutes(10)), .tags(.live))
struct CronMessageTests {
    @Test func anEmptyScheduleIsAConfigurationError() async throws {
        let result = try await LanesBinary.run(["cron", "next", ""], environment: [:])
        #expect(result.status == 78)
        #expect(result.errors.contains("The schedule is empty"), "\(result.errors)")
        #expect(!result.errors.contains("never fires"))
    }
}
