import Foundation
import LanesCron
import Testing

/// Every case of ../shared/cron/vectors.jsonl: acceptance, error text, warning, resolved values and
/// lanes' fire times.
@Suite(.timeLimit(.minutes(3))) struct VectorTests {
    static let zones = SystemTimeZoneResolver()

    @Test func allVectorsAreLoaded() {
        #expect(Fixtures.vectors.count == 3026)
    }

    @Test(arguments: Fixtures.vectors)
    func vector(_ vector: Fixtures.Vector) throws {
        let zone = try #require(Self.zones.timeZone(identifier: vector.tz))
        let schedule: CronSchedule
        do {
            schedule = try CronSchedule(parsing: vector.spec, seed: vector.seed, timeZones: Self.zones)
        } catch {
            #expect(!vector.ok, "\(vector.id): rejected: \(error.message)")
            #expect(error.message == vector.error, "\(vector.id)")
            return
        }
        #expect(vector.ok, "\(vector.id): accepted but Jenkins says \(vector.error ?? "")")
        #expect(schedule.warning == vector.warning, "\(vector.id)")
        let tabs = try #require(vector.tabs)
        #expect(schedule.entries.count == tabs.count, "\(vector.id)")
        for (entry, tab) in zip(schedule.entries, tabs) {
            #expect(entry.table.values(of: .minute) == tab.minute, "\(vector.id) minute")
            #expect(entry.table.values(of: .hour) == tab.hour, "\(vector.id) hour")
            #expect(entry.table.values(of: .dayOfMonth) == tab.dom, "\(vector.id) dom")
            #expect(entry.table.values(of: .month) == tab.month, "\(vector.id) month")
            #expect(entry.table.values(of: .dayOfWeek) == tab.dow, "\(vector.id) dow")
        }
        let start = try #require(CronInstant(iso8601: vector.start))
        let expected = try (vector.lanes_next ?? []).map { try #require(CronInstant(iso8601: $0)) }
        let actual = schedule.fireTimes(onOrAfter: start, defaultZone: zone, count: 5)
        #expect(Array(actual.prefix(expected.count)) == expected, "\(vector.id) from \(vector.start) in \(vector.tz)")
        if expected.count < 5 {
            // The generator only looked within a window after `start` (about 11 years; under a day
            // for the daylight-saving cases), and lanes searches without limit: anything lanes
            // adds must lie beyond that window.
            let window: Double = vector.category == "dst" ? 3 * 3600 : 11 * 365 * 86_400
            if actual.count > expected.count {
                #expect(actual[expected.count].secondsSince1970 - start.secondsSince1970 > window, "\(vector.id)")
            }
        }
    }
}

extension Fixtures.Vector: CustomTestStringConvertible {}
