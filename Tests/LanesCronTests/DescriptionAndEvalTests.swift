import Foundation
import LanesCron
import Testing

@Suite(.timeLimit(.minutes(3))) struct DescriptionTests {
    @Test(arguments: [
        ("H 0 * * 0-4", "nightly", "at 00:01 on Sunday through Thursday"),
        ("H/15 * * * *", "nightly", "every 15 minutes from minute 1"),
        ("*/5 9-17 * * 1-5", nil, "every 5 minutes during hours 9 through 17 on Monday through Friday"),
        ("0,30 * * * *", nil, "at minutes 0 and 30 past every hour"),
        ("* * * * *", nil, "every minute"),
        ("30 2 * * 6", nil, "at 02:30 on Saturday"),
        ("0 9-17 * * 1-5", nil, "at minute 0 past hours 9 through 17 on Monday through Friday"),
        ("0 0 29 2 1", nil, "at 00:00 on day-of-month 29 when it falls on Monday in February"),
        ("0 6,18 1,15 * *", nil, "at 06:00 and 18:00 on day-of-month 1 and 15"),
        ("0 0 31 2 *", nil, "never: no calendar date matches its day-of-month, month and day-of-week together"),
    ] as [(String, String?, String)])
    func sentences(spec: String, seed: String?, sentence: String) throws {
        let table = try CronSchedule(parsing: spec, seed: seed).entries[0].table
        #expect(CronDescription.sentence(for: table) == sentence)
    }

    @Test func compactValues() {
        #expect(CronDescription.compactValues([0, 1, 2, 3, 4], field: .dayOfWeek) == "0-4")
        #expect(CronDescription.compactValues(Array(0...6), field: .dayOfWeek) == "*")
        #expect(CronDescription.compactValues([1, 2, 16, 31, 32, 33], field: .minute) == "1,2,16,31-33")
    }
}

@Suite(.timeLimit(.minutes(3))) struct EvalTests {
    static let evaluator = CronEvaluator()

    static func answer(_ line: String) throws -> [String: Any] {
        try #require(try JSONSerialization.jsonObject(with: Data(evaluator.evaluate(jsonLine: line).utf8)) as? [String: Any])
    }

    @Test func acceptedSpecFormat() throws {
        let output = Self.evaluator.evaluate(jsonLine: #"{"id":"a/1","spec":"H 0 * * 0-4","seed":"nightly","tz":"America/New_York","start":"2026-11-21T00:00:00Z"}"#)
        #expect(output == #"{"id":"a/1","next":["2026-11-22T05:01:00Z","2026-11-23T05:01:00Z","2026-11-24T05:01:00Z","2026-11-25T05:01:00Z","2026-11-26T05:01:00Z"],"ok":true,"tabs":[{"dom":[1,2,3,4,5,6,7,8,9,10,11,12,13,14,15,16,17,18,19,20,21,22,23,24,25,26,27,28,29,30,31],"dow":[0,1,2,3,4],"hour":[0],"minute":[1],"month":[1,2,3,4,5,6,7,8,9,10,11,12]}]}"#)
    }

    @Test func rejectedSpecAndWarning() throws {
        let rejected = try Self.answer(#"{"id":7,"spec":"60 * * * *","seed":null,"tz":"UTC","start":"2026-01-01T00:00:00Z"}"#)
        #expect(rejected["id"] as? Int == 7)
        #expect(rejected["ok"] as? Bool == false)
        #expect(rejected["error"] as? String == "Invalid input: \"60 * * * *\": line 1:2: 60 is an invalid value. Must be within 0 and 59")
        #expect((rejected["tabs"] as? [Any])?.isEmpty == true)
        #expect((rejected["next"] as? [Any])?.isEmpty == true)
        #expect(rejected["warning"] == nil)
        let warned = try Self.answer(#"{"id":"w","spec":"*/5 * * * *","seed":null,"tz":"UTC","start":"2026-01-01T00:00:00Z"}"#)
        #expect(warned["warning"] as? String == "Spread load evenly by using \u{2018}H/5 * * * *\u{2019} rather than \u{2018}*/5 * * * *\u{2019}")
    }

    @Test func neverFiringAndEmptySchedules() throws {
        let never = try Self.answer(#"{"id":"n","spec":"0 0 31 2 *","seed":null,"tz":"UTC","start":"2026-01-01T00:00:00Z"}"#)
        #expect(never["ok"] as? Bool == true)
        #expect((never["next"] as? [Any])?.isEmpty == true)
        let empty = try Self.answer(##"{"id":"e","spec":"# nothing","seed":null,"tz":"UTC","start":"2026-01-01T00:00:00Z"}"##)
        #expect((empty["tabs"] as? [Any])?.isEmpty == true)
    }

    @Test func malformedInputStillGetsOneLine() throws {
        #expect(try Self.answer("not json")["ok"] as? Bool == false)
        #expect(try Self.answer(#"{"id":"z","spec":"H * * * *","seed":null,"tz":"Mars/Olympus","start":"2026-01-01T00:00:00Z"}"#)["ok"] as? Bool == false)
        #expect(try Self.answer(#"{"id":"s","spec":"H * * * *","seed":null,"tz":"UTC","start":"soon"}"#)["ok"] as? Bool == false)
    }

    /// The eval path gives every vector's answer, field for field (fire times as a prefix: the
    /// generator searched a limited window, see VectorTests).
    @Test func everyVectorThroughEval() throws {
        let lines = try String(contentsOf: Fixtures.directory.appendingPathComponent("vectors.jsonl"), encoding: .utf8).split(separator: "\n")
        for line in lines {
            let vector = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            let answer = try Self.answer(String(line))
            let id = vector["id"] as? String ?? ""
            #expect(answer["id"] as? String == id)
            #expect(answer["ok"] as? Bool == vector["ok"] as? Bool, "\(id)")
            #expect(answer["error"] as? String == vector["error"] as? String, "\(id)")
            #expect(answer["warning"] as? String == vector["warning"] as? String, "\(id)")
            let expectedTabs = (vector["tabs"] as? [[String: Any]] ?? []).map { tab in
                ["minute", "hour", "dom", "month", "dow"].map { tab[$0] as? [Int] ?? [] }
            }
            let actualTabs = (answer["tabs"] as? [[String: Any]] ?? []).map { tab in
                ["minute", "hour", "dom", "month", "dow"].map { tab[$0] as? [Int] ?? [] }
            }
            #expect(actualTabs == expectedTabs, "\(id)")
            let expectedNext = (vector["lanes_next"] as? [String] ?? []).compactMap { CronInstant(iso8601: $0) }
            let actualNext = (answer["next"] as? [String] ?? []).compactMap { CronInstant(iso8601: $0) }
            #expect(Array(actualNext.prefix(expectedNext.count)) == expectedNext, "\(id)")
            #expect(Set(answer.keys).isSubset(of: ["id", "ok", "error", "warning", "tabs", "next"]))
        }
    }
}
