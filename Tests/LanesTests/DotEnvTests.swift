import Testing
import LanesPlatform
@testable import LanesRuntime
import LanesWire

@Suite struct DotEnvTests {
    @Test func parsesAssignmentsQuotesCommentsAndExport() throws {
        let text = """
            # a comment
            PLAIN=value
            export EXPORTED=yes
            DOUBLE="two words"
            SINGLE='it''s'
            TRAILING=value # comment
            EMPTY=

            """
        let variables = try DotEnv.parse(text, file: ".env")
        #expect(variables["PLAIN"] == "value")
        #expect(variables["EXPORTED"] == "yes")
        #expect(variables["DOUBLE"] == "two words")
        #expect(variables["TRAILING"] == "value")
        #expect(variables["EMPTY"] == "")
    }

    @Test func namesFileAndLineOfABadLine() {
        #expect {
            try DotEnv.parse("A=1\n\nnot valid\n", file: "/p/.env")
        } throws: { error in
            String(describing: error).contains("/p/.env:3: expected KEY=value")
        }
        #expect {
            try DotEnv.parse("BAD-NAME=1\n", file: "/p/.env")
        } throws: { error in
            String(describing: error).contains("/p/.env:1: the name before '=' is not a valid variable name")
        }
    }
}

@Suite struct FormattingTests {
    @Test func jsonEscapesControlCharactersAndQuotes() {
        let value = JSONValue.object([("text", .string("a\"b\\c\nd\u{1}")), ("n", .number(3)), ("x", .null)])
        #expect(value.serialized == #"{"text":"a\"b\\c\nd\u0001","n":3,"x":null}"#)
    }

    @Test func durationsHaveMillisecondPrecision() {
        #expect(Duration.milliseconds(1234).formattedSeconds == "1.234 s")
        #expect(Duration.milliseconds(5).formattedSeconds == "0.005 s")
    }

    @Test func tableAlignsColumns() {
        let table = TextTable(header: ["#", "Step"], rows: [["1", "import_certificate"]]).rendered
        let widths = Set(table.split(separator: "\n").map(\.count))
        #expect(widths == [26], "\(table)")
    }

    @Test func timestampFormatsUTC() {
        #expect(Timestamp(secondsSinceEpoch: 1_700_000_000, nanoseconds: 5_000_000).iso8601 == "2023-11-14T22:13:20.005Z")
    }
}
