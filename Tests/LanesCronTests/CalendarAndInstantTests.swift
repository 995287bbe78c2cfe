import LanesPlatform
import LanesTestSupport
import Foundation
@testable import LanesCron
import Testing

@Suite struct CalendarAndInstantTests {
    /// Both date algorithms against Foundation's Gregorian calendar (Gregorian from 1582-10-15 on),
    /// across centuries and leap rules.
    @Test func dayNumbersAgreeWithFoundation() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for dayNumber in stride(from: Int64(-141_000), through: 800_000, by: 997) + [-1, 0, 1, 11_016, 11_017, 47_540] {
            let parts = calendar.dateComponents([.year, .month, .day, .weekday], from: Date(timeIntervalSince1970: Double(dayNumber) * 86_400))
            let expected = (Int64(parts.year!), parts.month!, parts.day!)
            let fast = CivilDate.date(dayNumber: dayNumber)
            let slow = CivilDate.dateBySlowArithmetic(dayNumber: dayNumber)
            #expect(fast == expected, "day \(dayNumber)")
            #expect(slow == expected, "day \(dayNumber)")
            #expect(CivilDate.dayNumber(year: expected.0, month: expected.1, day: expected.2) == dayNumber)
            #expect(CivilDate.weekday(dayNumber: dayNumber) == parts.weekday! - 1)
        }
    }

    /// The fast (32-bit) and the general algorithm agree on proleptic dates far back, and round-trip.
    @Test func fastAndGeneralDatesAgree() {
        for dayNumber in stride(from: Int64(-12_699_422), through: 3_000_000, by: 9_973) {
            let fast = CivilDate.date(dayNumber: dayNumber)
            #expect(fast == CivilDate.dateBySlowArithmetic(dayNumber: dayNumber), "day \(dayNumber)")
            #expect(CivilDate.dayNumber(year: fast.year, month: fast.month, day: fast.day) == dayNumber)
        }
    }

    @Test(arguments: [
        ("2024-06-15T12:34:00Z", 1_718_454_840.0),
        ("2024-06-15T12:34:00-04:00", 1_718_469_240.0),
        ("2024-06-15T12:34:00+0530", 1_718_435_040.0),
        ("2024-11-15T10:19:59.999Z", 1_731_665_999.999),
        ("2024-06-15 12:34Z", 1_718_454_840.0),
        ("1969-12-31T23:59:00Z", -60.0),
    ])
    func parsesISO8601(text: String, seconds: Double) throws {
        let instant = try #require(CronInstant(iso8601: text))
        #expect(abs(instant.secondsSince1970 - seconds) < 1e-6)
    }

    @Test(arguments: ["", "2024-13-01T00:00:00Z", "2024-02-30T00:00:00Z", "2024-06-15", "2024-06-15T25:00Z", "2024-06-15T12:34:00Q", "tomorrow"])
    func rejectsMalformedISO8601(text: String) {
        #expect(CronInstant(iso8601: text) == nil)
    }

    @Test func wallTimeWithoutOffsetUsesTheZone() throws {
        let newYork = try #require(SystemTimeZone(identifier: "America/New_York"))
        #expect(CronInstant(iso8601: "2024-06-15T12:34", zone: newYork)?.description == "2024-06-15T16:34:00Z")
        // Repeated wall time: the first (daylight-time) instant. Skipped wall time: the instant after the gap.
        #expect(CronInstant(iso8601: "2024-11-03T01:30", zone: newYork)?.description == "2024-11-03T05:30:00Z")
        #expect(CronInstant(iso8601: "2024-03-10T02:30", zone: newYork)?.description == "2024-03-10T07:30:00Z")
    }

    @Test func formatsISO8601() {
        let instant = CronInstant(secondsSince1970: 1_718_454_840)
        #expect(instant.description == "2024-06-15T12:34:00Z")
        #expect(instant.iso8601(offset: -14_400) == "2024-06-15T08:34:00-04:00")
        #expect(instant.iso8601(offset: 19_800) == "2024-06-15T18:04:00+05:30")
        #expect(CronInstant(secondsSince1970: 1_731_665_999.5).description == "2024-11-15T10:19:59.500Z")
    }

    @Test func systemZoneTableAgreesWithFoundation() throws {
        for identifier in ["America/New_York", "Australia/Lord_Howe", "Europe/Moscow", "Asia/Pyongyang", "America/Sao_Paulo"] {
            let zone = try #require(SystemTimeZone(identifier: identifier))
            let foundation = try #require(TimeZone(identifier: identifier))
            var random = SplitMix64(seed: 99)
            for _ in 0..<2000 {
                let second = Int64.random(in: -2_000_000_000...5_000_000_000, using: &random)
                let period = zone.period(containing: second)
                #expect(Int(period.offset) == foundation.secondsFromGMT(for: Date(timeIntervalSince1970: Double(second))), "\(identifier) at \(second)")
                #expect(period.start <= second && second < period.end)
            }
        }
    }

    @Test func everyJenkinsZoneIsKnownHere() {
        let unknown = JavaTimeZoneIdentifiers.all.filter { TimeZone(identifier: $0) == nil }
        #expect(unknown.isEmpty, "unknown to Foundation: \(unknown.sorted())")
    }

    @Test func nextFireAfterAndAbsurdInstants() throws {
        let schedule = try CronSchedule(parsing: "*/30 * * * *", seed: nil)
        let utc = FixedOffsetTimeZone.utc
        let onTheHour = CronInstant(secondsSince1970: 1_767_225_600)
        #expect(schedule.nextFire(onOrAfter: onTheHour, defaultZone: utc) == onTheHour)
        #expect(schedule.nextFire(after: onTheHour, defaultZone: utc)?.description == "2026-01-01T00:30:00Z")
        // Nothing traps on values outside years 1…9999: they are clamped.
        #expect(schedule.nextFire(onOrAfter: CronInstant(secondsSince1970: .nan), defaultZone: utc) != nil)
        #expect(schedule.nextFire(onOrAfter: CronInstant(secondsSince1970: 1e300), defaultZone: utc) != nil)
        #expect(CronInstant(secondsSince1970: -.infinity).description == "0001-01-01T00:00:00Z")
    }

    @Test func clocks() {
        let fixed = FixedCronClock(CronInstant(secondsSince1970: 42))
        #expect(fixed.now().secondsSince1970 == 42)
        #expect(SystemCronClock().now().secondsSince1970 > 1_700_000_000)
    }
}
