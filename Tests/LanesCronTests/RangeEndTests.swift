import Testing
@testable import LanesCron

/// Finding 22 of issue 10: at the end of the supported range, fire times stop instead of repeating.
@Suite(.timeLimit(.minutes(3))) struct RangeEndTests {
    @Test func fireTimesStopAtTheLastSupportedMinute() throws {
        let schedule = try CronSchedule(parsing: "* * * * *", seed: nil)
        let start = try #require(CronInstant(iso8601: "9999-12-31T23:59:00Z"))
        let times = schedule.fireTimes(onOrAfter: start, defaultZone: FixedOffsetTimeZone.utc, count: 3)
        #expect(times.map(\.description) == ["9999-12-31T23:59:00Z"])
        #expect(Set(times).count == times.count)
    }
}
