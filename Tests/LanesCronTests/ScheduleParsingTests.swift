@testable import LanesCron
import Testing

/// Behaviour from JENKINS-SEMANTICS.md that the vectors exercise only in passing.
@Suite(.timeLimit(.minutes(3))) struct ScheduleParsingTests {
    static func error(_ text: String) -> String? {
        do {
            _ = try CronSchedule(parsing: text, seed: "job")
            return nil
        } catch {
            return error.message
        }
    }

    @Test func numbersAreGroupedLikeJavaMessageFormat() {
        #expect(Self.error("1000 * * * *") == "Invalid input: \"1000 * * * *\": line 1:4: 1,000 is an invalid value. Must be within 0 and 59")
        #expect(Self.error("H/1000000 * * * *") == "Invalid input: \"H/1000000 * * * *\": line 1:9: 1,000,000 is an invalid value. Must be within 1 and 60")
        #expect(JavaNumberFormat.grouped(Int64(-1234)) == "-1,234")
        #expect(JavaNumberFormat.grouped(Int64(999)) == "999")
    }

    @Test func errorsCarryLineAndColumn() throws {
        do {
            _ = try CronSchedule(parsing: "# nightly\n\nH H 32 * *", seed: nil)
            Issue.record("accepted an invalid day")
        } catch {
            #expect(error.lineNumber == 3)
            #expect(error.column == 6)
            #expect(error.description == error.message)
        }
    }

    @Test func numberOverflowHasNoPosition() throws {
        #expect(Self.error("2147483648 * * * *") == "Invalid input: \"2147483648 * * * *\": For input string: \"2147483648\"")
        // Leading zeros do not count towards overflow.
        #expect(Self.error("00000000000000000000059 * * * *") == nil)
    }

    @Test func lexerErrorsWaitForTheParser() {
        // The parse error at `* *` (missing fields) is reported before the bad character that follows.
        #expect(Self.error("* * * *\u{2028}") == "Invalid input: \"* * * *\u{2028}\": line 1:7: token recognition error at: '\u{2028}'")
        #expect(Self.error("1-2-3 x * * *") == "Invalid input: \"1-2-3 x * * *\": line 1:3: mismatched input '-' expecting {WS, '/', ','}")
        // A partial keyword swallows the next character into the message.
        #expect(Self.error("@mont") == "Invalid input: \"@mont\": line 1:1: token recognition error at: 'mont'")
        #expect(Self.error("@midx") == "Invalid input: \"@midx\": line 1:1: token recognition error at: 'midx'")
    }

    @Test func lineSeparatorsAndTrimming() throws {
        let crlf = try CronSchedule(parsing: "TZ=UTC\r\nH H * * *\r\n\r\n", seed: nil)
        #expect(crlf.timeZoneIdentifier == "UTC")
        #expect(crlf.entries.map(\.lineNumber) == [2])
        #expect(Self.error("H H * * *\r* * * * *") == "Invalid input: \"H H * * *\r* * * * *\": line 1:9: token recognition error at: '\\r'")
        #expect(try CronSchedule(parsing: "\t H\tH * * *\u{1}  ", seed: nil).entries[0].line == "H\tH * * *")
        #expect(CronSchedule.javaLines("a\n\n") == ["a"])
        #expect(CronSchedule.javaLines("\nb") == ["", "b"])
    }

    @Test func timeZoneLine() throws {
        #expect(try CronSchedule(parsing: "TZ=TZ=Asia/Tokyo\nH H * * *", seed: nil).timeZoneIdentifier == "Asia/Tokyo")
        #expect(Self.error("TZ=GMT+08:00\nH * * * *") == "Invalid or unsupported timezone 'GMT+08:00'")
        #expect(Self.error("TZ= UTC\nH * * * *") == "Invalid or unsupported timezone ' UTC'")
        #expect(try CronSchedule(parsing: "TZ=EST\nH * * * *", seed: nil).timeZone?.identifier == "EST")
        #expect(Self.error("# c\nTZ=UTC") == "Invalid input: \"TZ=UTC\": line 2:0: token recognition error at: 'T'")
    }

    @Test func timeZoneLineAppliesToAliasesInLanes() throws {
        let schedule = try CronSchedule(parsing: "TZ=Asia/Taipei\n@daily", seed: nil)
        let start = try #require(CronInstant(iso8601: "2026-01-01T00:00:00Z"))
        // @daily without a seed is 00:00, in Taipei (+08:00), not in the default zone.
        #expect(schedule.nextFire(onOrAfter: start, defaultZone: FixedOffsetTimeZone.utc)?.description == "2026-01-01T16:00:00Z")
    }

    @Test func fieldSemantics() throws {
        func table(_ spec: String) throws -> CronTable { try CronSchedule(parsing: spec, seed: "job").entries[0].table }
        #expect(try table("* * * * 5-7").values(of: .dayOfWeek) == [0, 5, 6])
        #expect(try table("*/61 * * * *").values(of: .minute) == [0])
        #expect(try table("* * H/3 * *").values(of: .dayOfMonth).allSatisfy { $0 <= 28 })
        #expect(try table("* * */3 * *").values(of: .dayOfMonth).last == 31)
        #expect(try table("*,5 * * * *").values(of: .minute).count == 60)
        #expect(try table("@daily 5 5").values(of: .month).count == 12)
        // Java int arithmetic wraps for a huge step (23, -2^31+22, 21, …): Jenkins ends up with every hour.
        #expect(try table("* 23-23/2147483647 * * *").values(of: .hour) == Array(0...23))
    }

    @Test func dayOfMonthAndDayOfWeekBothApply() throws {
        let schedule = try CronSchedule(parsing: "0 0 1 * 0", seed: nil)
        let start = try #require(CronInstant(iso8601: "2026-01-01T00:00:00Z"))
        // The first 1st of a month that is a Sunday in 2026 is February 1st; then March 1st.
        let times = schedule.fireTimes(onOrAfter: start, defaultZone: FixedOffsetTimeZone.utc, count: 2)
        #expect(times.map(\.description) == ["2026-02-01T00:00:00Z", "2026-03-01T00:00:00Z"])
    }

    @Test(arguments: [
        ("* * * * *", "Do you really mean \"every minute\" when you say \"* * * * *\"? Perhaps you meant \"H * * * *\""),
        ("*\t0 * * *", "Do you really mean \"every minute\" when you say \"*\t0 * * *\"? Perhaps you meant \"H * * *\""),
        ("*\t0\t*\t*\t*", "Do you really mean \"every minute\" when you say \"*\t0\t*\t*\t*\"? Perhaps you meant \"H *\t0\t*\t*\t*\""),
        ("0 0 */5 * *", "Short cycles in the day-of-month field will behave oddly near the end of a month"),
        ("0,15,30,45 * * * *", "Spread load evenly by using \u{2018}H/15 * * * *\u{2019} rather than \u{2018}0,15,30,45 * * * *\u{2019}"),
        ("*/5 * * * *", "Spread load evenly by using \u{2018}H/5 * * * *\u{2019} rather than \u{2018}*/5 * * * *\u{2019}"),
        ("0 0 1 * 0", "Spread load evenly by using \u{2018}H 0 1 * 0\u{2019} rather than \u{2018}0 0 1 * 0\u{2019}"),
    ])
    func warnings(spec: String, warning: String) throws {
        #expect(try CronSchedule(parsing: spec, seed: nil).warning == warning)
    }

    @Test(arguments: ["H H * * *", "@hourly", "0,15,31,45 * * * *", "0,20,40\t* * * *"])
    func noWarning(spec: String) throws {
        #expect(try CronSchedule(parsing: spec, seed: nil).warning == nil)
    }
}
