import LanesPlatform
@testable import LanesCron
import LanesTestSupport
import Testing

/// Random specs, zones and windows: lanes' fire times must equal what a brute-force walk over every
/// minute of the window finds, with lanes' daylight-saving policy applied minute by minute.
@Suite struct FireTimePropertyTests {
    static let resolver = SystemTimeZoneResolver()
    static let zoneIdentifiers = ["UTC", "America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "Asia/Taipei", "Europe/London"]

    /// Fire minutes within `[start, start + length)` by checking each minute.
    static func bruteForce(_ table: CronTable, zone: any CronTimeZone, start: Int64, length: Int64) -> [Int64] {
        func wallTime(_ minute: Int64) -> Int64 {
            minute + CivilDate.floorDivide(Int64(zone.period(containing: minute * 60).offset), 60)
        }
        let lanesPolicy = !table.coversEveryHour
        // Wall times already passed before the window count as "first occurrences".
        var latestWallTime = (start - 240..<start).map(wallTime).max()!
        var previousWallTime = wallTime(start - 1)
        var fires: [Int64] = []
        for minute in start..<(start + length) {
            let wall = wallTime(minute)
            var fires_here = false
            if table.matches(CivilMinute(minuteNumber: wall)) {
                fires_here = !lanesPolicy || wall > latestWallTime
            }
            if lanesPolicy, wall > previousWallTime + 1 {
                // Spring-forward gap: skipped wall times fire now.
                fires_here = fires_here || ((previousWallTime + 1)..<wall).contains { table.matches(CivilMinute(minuteNumber: $0)) }
            }
            if fires_here { fires.append(minute) }
            latestWallTime = max(latestWallTime, wall)
            previousWallTime = wall
        }
        return fires
    }

    static func check(line: String, seed: String, zoneIdentifier: String, start: Int64, length: Int64) throws {
        let schedule = try CronSchedule(parsing: line, seed: seed)
        let zone = try #require(resolver.timeZone(identifier: zoneIdentifier))
        let table = try #require(schedule.tables.first)
        let expected = bruteForce(table, zone: zone, start: start, length: length)
        var actual: [Int64] = []
        var minute = start
        while let next = schedule.nextFireMinute(atOrAfter: minute, defaultZone: zone), next < start + length {
            if let last = actual.last { #expect(next > last, "not increasing: \(line) in \(zoneIdentifier)") }
            actual.append(next)
            minute = next + 1
        }
        #expect(actual == expected, "\(line) seed \(seed) in \(zoneIdentifier) from \(CronInstant(minuteNumber: start))")
    }

    @Test(arguments: 0..<40)
    func randomSpecsMatchBruteForce(batch: Int) throws {
        var random = SplitMix64(seed: UInt64(batch) &* 0x1234_5678_9ABC_DEF1 &+ 7)
        for _ in 0..<10 {
            let line = RandomSpecs.line(using: &random)
            let zoneIdentifier = Self.zoneIdentifiers.randomElement(using: &random)!
            // 2024-01-01 plus up to ~6 years, three days at a time.
            let start = 28_401_120 + Int64.random(in: 0..<(6 * 525_960), using: &random)
            try Self.check(line: line, seed: "job-\(batch)", zoneIdentifier: zoneIdentifier, start: start, length: 3 * 1440)
        }
    }

    /// Windows around daylight-saving changes, with hour fields that hit the changed hours.
    @Test(arguments: ["America/New_York", "Australia/Sydney", "Australia/Lord_Howe", "Europe/London"])
    func daylightSavingWindows(zoneIdentifier: String) throws {
        let zone = try #require(Self.resolver.timeZone(identifier: zoneIdentifier))
        var random = SplitMix64(seed: UInt64(zoneIdentifier.utf8.count))
        var instant: Int64 = 1_704_067_200  // 2024-01-01
        for _ in 0..<6 {
            let change = zone.period(containing: instant).end
            instant = change
            for _ in 0..<8 {
                let hours = ["*", "1,2,3", "2", "0-4", "1-3/2", "H(0-3)", "*/2", "2,3"].randomElement(using: &random)!
                let minutes = ["0", "30", "*/15", "H", "0-59/7", "*", "15,45"].randomElement(using: &random)!
                let line = "\(minutes) \(hours) * * *"
                let start = CivilDate.floorDivide(change, 60) - Int64.random(in: 60...1500, using: &random)
                try Self.check(line: line, seed: "dst", zoneIdentifier: zoneIdentifier, start: start, length: 2 * 1440)
            }
        }
    }

    @Test func rareDateIsFoundDecadesAhead() throws {
        let schedule = try CronSchedule(parsing: "0 0 29 2 1", seed: nil)
        let start = try #require(CronInstant(iso8601: "2024-03-01T00:00:00Z"))
        let times = schedule.fireTimes(onOrAfter: start, defaultZone: FixedOffsetTimeZone.utc, count: 3)
        #expect(times.map(\.description) == ["2044-02-29T00:00:00Z", "2072-02-29T00:00:00Z", "2112-02-29T00:00:00Z"])
    }

    @Test(arguments: ["0 0 31 2 *", "0 0 30 2 *", "0 0 31 4,6,9,11 *", "TZ=Asia/Tokyo\n0 0 31 2 *\n0 0 30 2 *"])
    func impossibleDatesNeverFire(spec: String) throws {
        let schedule = try CronSchedule(parsing: spec, seed: "job")
        #expect(!schedule.canEverFire)
        #expect(schedule.nextFire(onOrAfter: CronInstant(secondsSince1970: 0), defaultZone: FixedOffsetTimeZone.utc) == nil)
    }

    @Test func textWithoutScheduleLinesNeverFires() throws {
        let schedule = try CronSchedule(parsing: "# only a comment\n\n", seed: nil)
        #expect(schedule.entries.isEmpty)
        #expect(!schedule.canEverFire)
    }
}
