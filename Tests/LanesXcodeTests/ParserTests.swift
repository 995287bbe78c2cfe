import Foundation
import Testing
@testable import LanesXcode

@Suite(.timeLimit(.minutes(3))) struct ParserTests {
    private func root(_ text: String) throws -> PBXDictionary {
        try PBXDocument(bytes: Array(text.utf8)).root
    }

    @Test(arguments: [
        (#"{ a = "tab\there"; }"#, "tab\there"),
        (#"{ a = "q\"d\\b"; }"#, "q\"d\\b"),
        (#"{ a = 'single "quoted"'; }"#, "single \"quoted\""),
        (#"{ a = 'it\'s'; }"#, "it's"),
        (#"{ a = "\U20AC \u00e9"; }"#, "€ é"),
        (#"{ a = "\UD83D\UDE00"; }"#, "😀"),
        (#"{ a = "\101\102\7"; }"#, "AB\u{07}"),
        (#"{ a = "\a\b\f\n\r\v"; }"#, "\u{07}\u{08}\u{0C}\n\r\u{0B}"),
        (#"{ a = "\351t\351"; }"#, "été"),
        ("{ a = \"caf\u{E9} 日本\"; }", "caf\u{E9} 日本"),
        (#"{ a = bare.path/with-dash_$x:y+z; }"#, "bare.path/with-dash_$x:y+z"),
        (#"{ a = ""; }"#, ""),
    ])
    func decodesStrings(source: String, expected: String) throws {
        #expect(try root(source)["a"]?.string == expected)
    }

    @Test func readsCommentsArraysDataAndAnyIds() throws {
        let text = """
        // !$*UTF8*$!
        {
        \t/* block */ objects = { // trailing
        \t\tXYZ-not-hex.id /* c */ = {isa = Thing; list = (a, "b" /* x */, ); blob = <0A ff 00>;};
        \t};
        }
        """
        let object = try #require(try root(text)["objects"]?.dictionary?["XYZ-not-hex.id"]?.dictionary)
        #expect(object["isa"]?.string == "Thing")
        #expect(object["list"]?.strings == ["a", "b"])
        guard case .data(let data)? = object["blob"] else { Issue.record("blob is not data"); return }
        #expect(data.bytes == [0x0A, 0xFF, 0x00])
    }

    @Test func rangesCoverTheTokensAsWritten() throws {
        let text = "{ key = \"quoted value\"; other = (x, y); }"
        let document = try PBXDocument(bytes: Array(text.utf8))
        let entry = try #require(document.root.entry("key"))
        #expect(String(decoding: document.bytes[entry.value.range], as: UTF8.self) == "\"quoted value\"")
        #expect(String(decoding: document.bytes[entry.range], as: UTF8.self) == "key = \"quoted value\";")
        let array = try #require(document.root["other"])
        #expect(String(decoding: document.bytes[array.range], as: UTF8.self) == "(x, y)")
    }

    @Test(arguments: [
        ("{\n\ta = b;\n\tc = ;\n}", 3, 6, "expected a value"),
        ("{\n\ta = b\n}", 3, 1, "expected ';'"),
        ("{\n\ta = \"open;\n}", 2, 6, "not closed"),
        ("{ a = (x y); }", 1, 10, "expected ',' or ')'"),
        ("{ a = b; } trailing", 1, 12, "after the end"),
        ("{ a = <0g>; }", 1, 9, "hexadecimal"),
        ("{ a = b;", 1, 1, "expected '}'"),
        ("", 1, 1, "unexpected end of file"),
        ("( a, b )", 1, 1, "not a dictionary"),
    ])
    func malformedInputReportsLineAndColumn(source: String, line: Int, column: Int, reason: String) {
        #expect {
            _ = try PBXDocument(bytes: Array(source.utf8), path: "Bad.pbxproj")
        } throws: { error in
            guard let error = error as? PBXParseError else { return false }
            return error.line == line && error.column == column && error.reason.contains(reason)
                && error.description.hasPrefix("Bad.pbxproj:\(line):\(column):")
        }
    }

    @Test func deepNestingIsAnErrorNotACrash() {
        let text = "{ a = " + String(repeating: "(", count: 100_000) + " }"
        #expect(throws: PBXParseError.self) { _ = try PBXDocument(bytes: Array(text.utf8)) }
    }

    @Test func invalidUTF8IsAnError() {
        var bytes = Array("{ a = \"x".utf8)
        bytes += [0xFF, 0xFE]
        bytes += Array("\"; }".utf8)
        #expect(throws: PBXParseError.self) { _ = try PBXDocument(bytes: bytes) }
    }
}

@Suite(.timeLimit(.minutes(3))) struct QuotingTests {
    @Test(arguments: [
        ("Manual", "Manual"),
        ("works.sth.brewer", "works.sth.brewer"),
        ("$(TARGET_NAME)", "\"$(TARGET_NAME)\""),
        ("Brewer/Info.plist", "Brewer/Info.plist"),
        ("", "\"\""),
        ("iPhone Distribution", "\"iPhone Distribution\""),
        ("7a1d0e4c-2b7e-4e8f", "\"7a1d0e4c-2b7e-4e8f\""),
        ("http://x", "\"http://x\""),
        ("a//b", "\"a//b\""),
        ("___VARIABLE", "\"___VARIABLE\""),
        ("__ok", "__ok"),
        ("say \"hi\"\n\tnow\\", #""say \"hi\"\n\tnow\\""#),
        ("caf\u{E9}", "\"caf\u{E9}\""),
        ("bell\u{07}", #""bell\U0007""#),
    ])
    func rendersLikeXcode(value: String, expected: String) throws {
        #expect(PBXQuoting.render(value) == expected)
        // And it reads back as the same value.
        #expect(try PBXDocument(bytes: Array("{ k = \(expected); }".utf8)).root["k"]?.string == value)
    }
}
