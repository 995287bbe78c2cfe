import Foundation
import LanesPlatform
import LanesTestSupport
import LanesWire
import Testing

/// The one wire format (issue 35): events and listings are written and read by the same `Codable`
/// records, through a Foundation-free coder; the runner's byte fast path for output lines writes
/// exactly what the encoder would.
@Suite(.timeLimit(.minutes(3))) struct WireFormatTests {
    /// Lines with every character class the fast path escapes by hand, and secrets' usual shapes.
    static let awkwardLines = ["", "plain", "tab\there", "quote \" and backslash \\", "control \u{1}\u{1F}", "newline\nin it",
                               "crlf\r\n", "unicode é 漢字 🚀", String(repeating: "x", count: 70_000), "{\"event\":\"fake\"}"]

    @Test(arguments: [0, 1, 7, 42, 1_000_000])
    func theOutputFastPathWritesTheEncodersBytes(step: Int) throws {
        for line in Self.awkwardLines {
            var fast: [UInt8] = []
            RunEventRecord.Output.appendEncoded(step: step, line: line, to: &fast)
            let encoded = try WireEncoder().encodeBytes(RunEventRecord.output(.init(step: step, line: line)))
            #expect(fast == encoded, "step \(step), line \(line.prefix(40).debugDescription)")
            #expect(RunEventRecord(line: fast) == .output(.init(step: step, line: line)))
        }
    }

    @Test(arguments: [0, 1, 7, 42, 1_000_000])
    func theOutputBatchFastPathWritesTheEncodersBytes(step: Int) throws {
        // A batch holds lines without control characters but tabs (the log made them visible).
        let text = Self.awkwardLines.map { $0.filter { !$0.isNewline && $0 != "\u{1}" && $0 != "\u{1F}" } + "\n" }.joined()
        var fast: [UInt8] = []
        Array(text.utf8).withUnsafeBufferPointer { RunEventRecord.OutputBatch.appendEncoded(step: step, utf8Text: $0, to: &fast) }
        let encoded = try WireEncoder().encodeBytes(RunEventRecord.outputBatch(.init(step: step, text: text)))
        #expect(fast == encoded + [UInt8(ascii: "\n")])
        #expect(RunEventRecord(line: fast.dropLast()) == .outputBatch(.init(step: step, text: text)))
        #expect(RunEventRecord.OutputBatch(step: step, text: text).lines.count == Self.awkwardLines.count)
    }

    @Test func everyEventRoundTripsThroughItsRecord() throws {
        let time = try #require(Timestamp(iso8601: "2026-11-21T20:43:56.123Z"))
        let records: [RunEventRecord] = [
            .laneStarted(.init(lane: "release", time: time, trigger: "ci", commit: String(repeating: "a", count: 40))),
            .stepStarted(.init(step: 1, id: "sh", banner: "echo \"hi\"", time: time,
                               options: WireFields([("command", .init(value: "echo", source: "argument")), ("password", .init(value: "********", source: "environment"))]))),
            .output(.init(step: 1, line: "hi")),
            .output(.init(step: nil, source: RunEventRecord.Output.printed, line: "printed")),
            .outputBatch(.init(step: 1, text: "one\n\"two\"\n")),
            .message(.init(text: "--- lane other")),
            .result(.init(value: .object([("tag", .string("v1")), ("count", .number(3)), ("ok", .bool(true)), ("none", .null)]))),
            .stepFinished(.init(step: 1, id: "sh", durationMilliseconds: 1234, succeeded: false, error: "exit 3", outputTail: ["a", "b"],
                                reported: .init(version: "2.1.0", buildNumber: "42", artifacts: ["Brewer.ipa"]))),
            .laneFinished(.init(lane: "release", succeeded: false, durationMilliseconds: 2000, steps: 1, error: "step 1 failed")),
        ]
        for record in records {
            let line = record.line
            #expect(!line.contains("\n"))
            #expect(RunEventRecord(line: Array(line.utf8)) == record, "\(line)")
            // Foundation's own parser reads the same document: the coder writes standard JSON.
            let object = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any])
            #expect(object["event"] as? String == record.name)
        }
        // One key convention: snake_case, `event` first, and the schema in the first record.
        #expect(records[0].line.hasPrefix(#"{"event":"lane_started","schema":1,"lane":"release","time":"2026-11-21T20:43:56.123Z""#))
        #expect(records[7].line == #"{"event":"step_finished","step":1,"id":"sh","duration_ms":1234,"result":"failed","error":"exit 3","output_tail":["a","b"],"reported":{"version":"2.1.0","build_number":"42","artifacts":["Brewer.ipa"]}}"#)
        #expect(records[1].line.contains(#""options":{"command":{"value":"echo","source":"argument"},"password":"#))
    }

    @Test func aNewerWritersEventsAreReadForWhatTheyHold() {
        #expect(RunEventRecord(line: Array(#"{"event":"lane_paused","lane":"x"}"#.utf8)) == .unknown("lane_paused"))
        let newer = RunEventRecord(line: Array(#"{"event":"message","text":"hi","colour":"red","schema":9}"#.utf8))
        #expect(newer == .message(.init(text: "hi")))
        #expect(RunEventRecord(line: Array(#"{"event":"outp"#.utf8)) == nil)  // a torn last line
        #expect(RunEventRecord(line: Array(#"{"lane":"x"}"#.utf8)) == nil)
    }

    @Test func theListingUsesTheSameConvention() throws {
        let listing = LaneListingRecord(lanes: [.init(
            name: "nightly", description: "Nightly build",
            options: [.init(name: "dry_run", type: "Bool", summary: "Skip the upload", env: nil, secret: false, required: false, default: "false")],
            environment: ["API_URL"], secrets: ["TOKEN"], tools: ["xcodebuild"],
            schedules: [.init(kind: LaneListingRecord.Schedule.pollSCM, spec: "H/15 * * * *", seed: "nightly", minute: "7;22;37;52", hour: "*", next: "never")],
            triggers: .init(schedule: [], pollSCM: ["H/15 * * * *"], hashSeed: "nightly", timeZone: nil))])
        let text = try WireEncoder().encodeText(listing)
        #expect(text.hasPrefix(#"{"schema":1,"lanes":[{"name":"nightly""#))
        #expect(text.contains(#""triggers":{"schedule":[],"poll_scm":["H/15 * * * *"],"hash_seed":"nightly","time_zone":null}"#))
        #expect(try WireDecoder().decode(LaneListingRecord.self, from: text) == listing)
    }

    @Test func timestampsAreWrittenAndReadInOnePlace() throws {
        let formatter = ISO8601DateFormatter()
        formatter.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var random = SplitMix64(seed: 0x35_35_35)
        print("WireFormatTests seed 0x353535")
        for _ in 0..<2_000 {
            let seconds = Int.random(in: -2_208_988_800...7_258_118_400, using: &random)
            let millis = Int.random(in: 0..<1000, using: &random)
            let stamp = Timestamp(secondsSinceEpoch: seconds, nanoseconds: millis * 1_000_000)
            #expect(stamp.iso8601 == formatter.string(from: Date(timeIntervalSince1970: Double(seconds) + Double(millis) / 1000)))
            #expect(Timestamp(iso8601: stamp.iso8601) == stamp)
        }
        #expect(Timestamp(iso8601: "2024-03-01T14:05:09+01:00")?.secondsSinceEpoch == 1_709_298_309)
        #expect(Timestamp(iso8601: "2024-03-01T14:05:09.5Z")?.nanoseconds == 500_000_000)
        for bad in ["2023-02-29T00:00:00Z", "2024-13-01T00:00:00Z", "2024-03-01T24:00:00Z", "2024-03-01T14:05:09", "2024-03-01 14:05:09Z", "yesterday"] {
            #expect(Timestamp(iso8601: bad) == nil, "\(bad)")
        }
    }

    @Test func theParserReadsWhatFoundationReadsAndRefusesWhatItRefuses() throws {
        let good = [#"{"a":[1,-2.5e3,true,false,null,"\u00e9\ud83d\ude80\n\/"]}"#, " [ ] ", "0", #""x""#, #"{"k":{"k":{}}}"#, "1E+2"]
        for text in good {
            // Foundation reads the text and writes it again; both texts parse to the same value here.
            let parsed = try JSONValue(parsing: text)
            let reference = try JSONSerialization.jsonObject(with: Data(text.utf8), options: [.fragmentsAllowed])
            let rewritten = try JSONSerialization.data(withJSONObject: reference, options: [.fragmentsAllowed])
            #expect(try JSONValue(parsing: Array(rewritten)) == parsed, "\(text)")
        }
        for bad in ["", "[1,]", "{\"a\":1,}", "01", "1.", "-", "\"\u{1}\"", #""\ud83d""#, #""\x""#, "[1] 2", "{a:1}", "tru",
                    String(repeating: "[", count: 600) + String(repeating: "]", count: 600)] {
            #expect(throws: JSONSyntaxError.self, "\(bad.prefix(20))") { try JSONValue(parsing: bad) }
        }
    }

    @Test func theOneJUnitWriterEscapesAndCounts() throws {
        let document = JUnitDocument(name: "lanes & <co>", suites: [.init(name: "release", cases: [
            .init(classname: "lanes.release", name: "1. sh: echo \"a\"", time: 0.0015, outcome: .passed, systemOut: "a < b"),
            .init(classname: "lanes.release", name: "2. sh: exit 3", time: 1.25, outcome: .failed([.init(message: "exit 3", body: "tail\u{1B}")])),
            .init(classname: "lanes.release", name: "3. skipped", time: 0, outcome: .skipped),
        ])])
        let xml = document.xml
        #expect(xml.contains(#"<testsuites name="lanes &amp; &lt;co&gt;" tests="3" failures="1" skipped="1" errors="0" time="1.252">"#))
        #expect(xml.contains(#"<testcase classname="lanes.release" name="1. sh: echo &quot;a&quot;" time="0.002">"#))
        #expect(xml.contains(#"<failure message="exit 3" type="failure">tail"# + "\u{FFFD}</failure>"))
        #expect(xml.contains("<system-out>a &lt; b</system-out>"))
    }
}
