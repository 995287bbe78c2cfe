@testable import LanesCron
import Testing

@Suite(.timeLimit(.minutes(3))) struct HashTests {
    static func hex(_ bytes: [UInt8]) -> String {
        bytes.map { ($0 < 16 ? "0" : "") + String($0, radix: 16) }.joined()
    }

    @Test(arguments: [
        ("", "d41d8cd98f00b204e9800998ecf8427e"),
        ("a", "0cc175b9c0f1b6a831c399e269772661"),
        ("abc", "900150983cd24fb0d6963f7d28e17f72"),
        ("message digest", "f96b697d7cb7938d525a2f31aaf161d0"),
        ("abcdefghijklmnopqrstuvwxyz", "c3fcd3d76192e4007dfb496cca67e13b"),
        ("12345678901234567890123456789012345678901234567890123456789012345678901234567890", "57edf4a22be3c955ac49da2e2107b67a"),
        ("The quick brown fox jumps over the lazy dog", "9e107d9d372bb6826bd81d3542a419d6"),
    ])
    func md5KnownDigests(message: String, digest: String) {
        #expect(Self.hex(MD5.digest(Array(message.utf8))) == digest)
    }

    @Test func md5OfAMillionAs() {
        #expect(Self.hex(MD5.digest([UInt8](repeating: UInt8(ascii: "a"), count: 1_000_000))) == "7707d6ae4e027c70eea2a935c2296f21")
    }

    @Test func md5AroundBlockBoundaries() {
        // 55, 56 and 64 bytes put the length field in the same block, force a new block, fill one exactly.
        #expect(Self.hex(MD5.digest([UInt8](repeating: 0x61, count: 55))) == "ef1772b6dff9a122358552954ad0df65")
        #expect(Self.hex(MD5.digest([UInt8](repeating: 0x61, count: 56))) == "3b0c8ac703f828b04c6c197006d17218")
        #expect(Self.hex(MD5.digest([UInt8](repeating: 0x61, count: 64))) == "014842d480b571495a4a0363793f7367")
    }

    /// Values printed by `java.util.Random` (OpenJDK 17) for the same seeds and bounds.
    @Test func javaRandomMatchesJava() {
        var random = JavaRandom(seed: 42)
        let bounds: [Int32] = [60, 24, 7, 1, 2, 3, 1000, 1 << 20, Int32.max, 31]
        #expect(bounds.map { random.nextInt($0) } == [50, 3, 6, 0, 0, 1, 505, 742_088, 1_429_255_519, 3])
        var nightly = JavaRandom(seed: -4_227_386_298_608_433_563)
        #expect((0..<5).map { _ in nightly.nextInt(60) } == [1, 17, 34, 22, 40])
        var extreme = JavaRandom(seed: .min)  // bounds just above 2^30 exercise the rejection loop
        #expect([extreme.nextInt(1_000_000_007), extreme.nextInt(1_073_741_825), extreme.nextInt(1_073_741_825), extreme.nextInt(1_073_741_825)]
            == [569_741_353, 516_548_029, 663_681_053, 251_269_761])
    }

    /// The worked examples of JENKINS-SEMANTICS.md §7.
    @Test(arguments: [
        ("nightly", Int64(-4_227_386_298_608_433_563), [1], [0], [1], [17], [1, 16, 31, 46]),
        ("Brewer/developerRelease", Int64(-8_119_312_965_483_006_944), [30], [0], [30], [6], [0, 15, 30, 45]),
        ("ü-job", Int64(8_837_413_293_757_072_010), [23], [0], [23], [0], [8, 23, 38, 53]),
    ])
    func worked(seed: String, folded: Int64, nightlyMinute: [Int], nightlyHour: [Int], dailyMinute: [Int], dailyHour: [Int], quarterly: [Int]) throws {
        #expect(JenkinsHash.foldedSeed(seed) == folded)
        let nightly = try CronSchedule(parsing: "H 0 * * 0-4", seed: seed).entries[0].table
        #expect(nightly.values(of: .minute) == nightlyMinute)
        #expect(nightly.values(of: .hour) == nightlyHour)
        #expect(nightly.values(of: .dayOfWeek) == [0, 1, 2, 3, 4])
        let daily = try CronSchedule(parsing: "H H * * *", seed: seed).entries[0].table
        #expect(daily.values(of: .minute) == dailyMinute)
        #expect(daily.values(of: .hour) == dailyHour)
        #expect(try CronSchedule(parsing: "H/15 * * * *", seed: seed).entries[0].table.values(of: .minute) == quarterly)
    }

    @Test func noSeedTakesLowestValues() throws {
        let table = try CronSchedule(parsing: "H H(3-9) H H * ", seed: nil).entries[0].table
        #expect(table.values(of: .minute) == [0])
        #expect(table.values(of: .hour) == [3])
        #expect(table.values(of: .dayOfMonth) == [1])
        #expect(table.values(of: .month) == [1])
    }

    @Test func oneStreamAcrossLinesAndAliases() throws {
        // The second line's H continues the stream: it equals the second draw of a one-line text.
        let twoLines = try CronSchedule(parsing: "H * * * *\n# comment\n\nH * * * *", seed: "nightly")
        let oneLine = try CronSchedule(parsing: "H H * * *", seed: "nightly")
        #expect(twoLines.entries[1].table.values(of: .minute) == [17])
        #expect(oneLine.entries[0].table.values(of: .hour) == [17])
        // `@daily` is `H H * * *` drawn from the same stream.
        let alias = try CronSchedule(parsing: "@daily", seed: "nightly").entries[0]
        #expect(alias.effectiveSpec == "H H * * *")
        #expect(alias.table == oneLine.entries[0].table)
    }

    @Test func singleValueHashStillDraws() throws {
        // `H(5-5)` draws nextInt(1) and `H/1` is a single value: the following H sees the third draw.
        let schedule = try CronSchedule(parsing: "H(5-5) H/1 H * *", seed: "nightly")
        let table = schedule.entries[0].table
        #expect(table.values(of: .minute) == [5])
        #expect(table.values(of: .hour).count == 1)
        #expect(table.values(of: .dayOfMonth).count == 1)
    }
}
