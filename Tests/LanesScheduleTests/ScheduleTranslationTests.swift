import LanesCron
import Testing
@testable import LanesSchedule

@Suite(.timeLimit(.minutes(3))) struct ScheduleTranslationTests {
    func schedule(_ spec: String, seed: String? = nil) throws -> CronSchedule { try CronSchedule(parsing: spec, seed: seed) }

    @Test func utcLinesFireAtTheSameInstantsAsTheZonedSchedule() throws {
        let resolver = SystemTimeZoneResolver()
        let newYork = try #require(resolver.timeZone(identifier: "America/New_York"))
        let local = try schedule("H 1 * * 1-5", seed: "nightly")
        let winter = instant("2026-01-05T00:00:00Z")
        let offset = newYork.period(containing: Int64(winter.secondsSince1970)).offset
        let lines = try ScheduleTranslation.utcCronLines(local, offsetSeconds: offset)
        let utc = try schedule(lines.joined(separator: "\n"))
        // Within one offset period the UTC lines fire exactly when the local schedule does.
        #expect(utc.fireTimes(onOrAfter: winter, defaultZone: FixedOffsetTimeZone.utc, count: 30)
                == local.fireTimes(onOrAfter: winter, defaultZone: newYork, count: 30))
        // 01:xx Monday-Friday at -05:00 is 06:xx UTC the same days.
        #expect(lines.count == 1 && lines[0].hasSuffix(" 6 * * 1-5"))
    }

    @Test func aShiftAcrossMidnightMovesTheWeekdays() throws {
        let lines = try ScheduleTranslation.utcCronLines(try schedule("30 0 * * 0-4"), offsetSeconds: 8 * 3600)
        #expect(lines == ["30 16 * * 0-3,6"])
        let kolkata = try ScheduleTranslation.utcCronLines(try schedule("0 9 * * 1"), offsetSeconds: 19_800)
        #expect(kolkata == ["30 3 * * 1"])
    }

    @Test func aRestrictedDayOfMonthCannotMoveAcrossMidnight() throws {
        #expect(throws: ScheduleTranslation.Untranslatable.self) {
            try ScheduleTranslation.utcCronLines(try schedule("30 0 1 * *"), offsetSeconds: 8 * 3600)
        }
        #expect(try ScheduleTranslation.utcCronLines(try schedule("30 12 1 * *"), offsetSeconds: 8 * 3600) == ["30 4 1 * *"])
    }

    @Test func systemdCalendarsStartTheWeekOnMonday() throws {
        #expect(ScheduleTranslation.systemdCalendar(try schedule("30 0 * * 0-4"), zone: "Asia/Taipei")
                == ["Mon..Thu,Sun *-*-* 00:30:00 Asia/Taipei"])
        #expect(ScheduleTranslation.systemdCalendar(try schedule("*/15 8-17 1,15 1-3 *"), zone: "UTC")
                == ["*-1..3-1,15 08..17:00,15,30,45:00 UTC"])
    }
}
