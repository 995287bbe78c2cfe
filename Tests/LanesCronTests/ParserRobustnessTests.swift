import LanesTestSupport
import LanesCron
import Testing

/// A small sample of what `make fuzz-cron` does with 10^6 inputs: mutated vector specs must be
/// accepted or rejected with a Jenkins-style message, never crash, and accepted ones must yield
/// increasing fire times.
@Suite(.timeLimit(.minutes(3))) struct ParserRobustnessTests {
    static let pieces = ["*", "H", "H(", ")", "-", "/", ",", " ", "\t", "@", "#", "\n", "\r\n", "\r", "TZ=", "60", "2147483648",
                         "daily", "h", "é", "١", "\u{0}", "00", "7", "L", "?"]

    @Test(arguments: 0..<8)
    func mutatedSpecs(batch: Int) {
        var random = SplitMix64(seed: UInt64(batch) + 1000)
        let specs = Fixtures.vectors.map(\.spec)
        for _ in 0..<400 {
            var scalars = Array(specs.randomElement(using: &random)!.unicodeScalars)
            for _ in 0...Int.random(in: 0...3, using: &random) {
                let position = Int.random(in: 0...scalars.count, using: &random)
                if Bool.random(using: &random), position < scalars.count {
                    scalars.remove(at: position)
                } else {
                    scalars.insert(contentsOf: Self.pieces.randomElement(using: &random)!.unicodeScalars, at: position)
                }
            }
            var text = String.UnicodeScalarView()
            text.append(contentsOf: scalars)
            let input = String(text)
            do {
                let schedule = try CronSchedule(parsing: input, seed: "job")
                let times = schedule.fireTimes(onOrAfter: CronInstant(secondsSince1970: 1_767_225_600), defaultZone: FixedOffsetTimeZone.utc, count: 3)
                #expect(zip(times, times.dropFirst()).allSatisfy { $0 < $1 }, "\(input.debugDescription)")
            } catch {
                #expect(error.message.hasPrefix("Invalid input: \"") || error.message.hasPrefix("Invalid or unsupported timezone '"), "\(input.debugDescription)")
            }
        }
    }
}
