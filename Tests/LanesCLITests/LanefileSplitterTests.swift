import Foundation
import LanesTestSupport
import Testing
@testable import LanesDriver

/// The driver compiles each entry of a `Lanefile { ... }` block as a declaration of its own
/// (`LanefileSplitter`): only glue at line ends, so every line and column of the user's stays put.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct LanefileSplitterTests {
    func split(_ text: String) -> String? {
        LanefileSplitter.split(Array(text.utf8)).map { String(decoding: $0, as: UTF8.self) }
    }

    @Test func entriesBecomeDeclarationsAndEveryColumnStays() async throws {
        let source = """
            import Lanes

            let lanes = Lanefile(steps: [Deploy.self]) { // the lanes
                Lane("beta", "Ship a beta \\(1 + 1)") {
                    try echo("}")  // a brace in a string
                    try await sh("echo", "\\(["a"].map { $0 }.joined())")
                }
                .schedule("H 2 * * *")

                Finally { lane in
                    try echo(#"raw "}" \\#(lane)"#)
                }
            }

            """
        let split = try #require(self.split(source))
        #expect(split == """
            import Lanes

            let lanes = Lanefile(steps: [Deploy.self], __entries: __lanefileEntry_0_0, __lanefileEntry_0_1); private let __lanefileEntry_0_0 = __lanefileEntry( // the lanes
                Lane("beta", "Ship a beta \\(1 + 1)") {
                    try echo("}")  // a brace in a string
                    try await sh("echo", "\\(["a"].map { $0 }.joined())")
                }
                .schedule("H 2 * * *")); private let __lanefileEntry_0_1 = __lanefileEntry(

                Finally { lane in
                    try echo(#"raw "}" \\#(lane)"#)
                })
            <the block's closing brace, now a space>

            """.replacingOccurrences(of: "<the block's closing brace, now a space>", with: " "))
        let originalLines = source.split(separator: "\n", omittingEmptySubsequences: false)
        let splitLines = split.split(separator: "\n", omittingEmptySubsequences: false)
        #expect(originalLines.count == splitLines.count)
        for (original, rewritten) in zip(originalLines, splitLines) where !original.hasPrefix("let lanes") && original != "}" {
            #expect(rewritten.hasPrefix(original.prefix { $0 != "/" }), "\(rewritten) keeps the columns of \(original)")
        }
    }

    @Test func twoBlocksInOneFileGetTheirOwnNames() throws {
        let split = try #require(self.split("let shared = Lanefile {\n    Lane(\"a\", \"A\") {}\n}\nlet lanes = Lanefile {\n    shared\n    Lane(\"b\", \"B\") {}\n}\n"))
        #expect(split.contains("let shared = Lanefile(__entries: __lanefileEntry_0_0); private let __lanefileEntry_0_0 = __lanefileEntry("))
        #expect(split.contains("let lanes = Lanefile(__entries: __lanefileEntry_1_0, __lanefileEntry_1_1); private let __lanefileEntry_1_0 = __lanefileEntry("))
        #expect(split.contains("    shared); private let __lanefileEntry_1_1 = __lanefileEntry("))
    }

    /// What the splitter does not follow stays as the user wrote it: declarations and statements in
    /// the block, a directive, a possible regex literal, entries sharing a line, a block that is
    /// not a global's value, and source that does not lex.
    @Test(arguments: [
        "let lanes = Lanefile {\n    let name = \"a\"\n    Lane(name, \"A\") {}\n}\n",
        "let lanes = Lanefile {\n    if true {\n        Lane(\"a\", \"A\") {}\n    }\n}\n",
        "let lanes = Lanefile {\n    for index in 0..<3 {\n        Lane(\"a\\(index)\", \"A\") {}\n    }\n}\n",
        "let lanes = Lanefile {\n#if DEBUG\n    Lane(\"a\", \"A\") {}\n#endif\n}\n",
        "let lanes = Lanefile {\n    Lane(\"a\", \"A\") { _ = try Regex(\"x\"); let r = /a{2}/ }\n}\n",
        "let lanes = Lanefile { Lane(\"a\", \"A\") {} }\n",
        "let lanes = Lanefile {\n    Lane(\"a\", \"A\") {}; Lane(\"b\", \"B\") {}\n}\n",
        "let lanes = Lanefile {\n    Lane(\"a\", \"A\") {}\n}.lanes\n",
        "func make() -> Lanefile {\n    Lanefile {\n        Lane(\"a\", \"A\") {}\n    }\n}\n",
        "let lanes = Lanefile {\n    Lane(\"a\", \"A\") { try echo(\"unterminated) }\n}\n",
        "let lanes = Lanefile {\n}\n",
    ])
    func leavesWhatItDoesNotFollow(source: String) {
        #expect(split(source) == nil, "\(source)")
    }

    /// A division is not a regex literal: the block still splits.
    @Test func divisionIsNotARegexLiteral() {
        #expect(split("let lanes = Lanefile {\n    Lane(\"a\", \"A\") { try echo(\"\\(10 / 2)\"); let half = 10 / 2; _ = half }\n}\n") != nil)
    }

    func parts(_ text: String, entriesPerPart: Int = 2) -> (main: String, parts: [String])? {
        LanefileSplitter.parts(Array(text.utf8), file: "/p/Lanefile.swift", prefix: "__lanefileEntry_0", entriesPerPart: entriesPerPart)
            .map { (String(decoding: $0.main, as: UTF8.self), $0.parts.map { String(decoding: $0, as: UTF8.self) }) }
    }

    /// Cut into parts for the compiler's threads, every entry keeps its lines (behind a
    /// `#sourceLocation`), every part has the imports, and the main file keeps everything else where it was.
    @Test func partsKeepTheUsersLinesAndImports() throws {
        let source = """
            @preconcurrency import Foundation
            import Lanes

            let lanes = Lanefile(steps: [Deploy.self]) {
                Lane("a", "A") {
                    try echo("a")
                }
                .schedule("H 2 * * *")
                // between
                Lane("b", "B") { try echo("b") }
                Lane("c", "C") { try echo("c") }
            }
            let after = 1

            """
        let (main, parts) = try #require(self.parts(source))
        let location = #"#sourceLocation(file: "/p/Lanefile.swift", line: "#
        #expect(main.hasPrefix(location + "1)\n@preconcurrency import Foundation\nimport Lanes\n\nlet lanes = Lanefile(steps: [Deploy.self], __entries: __lanefileEntry_0_0_0, __lanefileEntry_0_0_1, __lanefileEntry_0_0_2)"))
        let mainLines = main.split(separator: "\n", omittingEmptySubsequences: false).dropFirst()
        #expect(mainLines.count == source.split(separator: "\n", omittingEmptySubsequences: false).count)
        #expect(mainLines.dropFirst(4).prefix(8).allSatisfy { $0.allSatisfy { $0 == " " } }, "the block is blanked: \(main)")
        #expect(mainLines.dropFirst(12).first == "let after = 1", "what follows the block keeps its line")
        let imports = location + "1)\n@preconcurrency import Foundation\n" + location + "2)\nimport Lanes\n"
        #expect(parts == [
            imports + location + "4)\nlet __lanefileEntry_0_0_0 = __lanefileEntry(\n    Lane(\"a\", \"A\") {\n        try echo(\"a\")\n    }\n    .schedule(\"H 2 * * *\")\n    // between\n)\n"
                + location + "9)\nlet __lanefileEntry_0_0_1 = __lanefileEntry(\n    Lane(\"b\", \"B\") { try echo(\"b\") }\n)\n",
            imports + location + "10)\nlet __lanefileEntry_0_0_2 = __lanefileEntry(\n    Lane(\"c\", \"C\") { try echo(\"c\") }\n)\n",
        ])
    }

    /// A source with what other files could not see, or too few entries to be worth it, stays one file.
    @Test(arguments: [
        "import Lanes\nprivate func helper() {}\nlet lanes = Lanefile {\n    Lane(\"a\", \"A\") {}\n    Lane(\"b\", \"B\") {}\n    Lane(\"c\", \"C\") {}\n}\n",
        "import Lanes\nfileprivate let name = \"a\"\nlet lanes = Lanefile {\n    Lane(\"a\", \"A\") {}\n    Lane(\"b\", \"B\") {}\n    Lane(\"c\", \"C\") {}\n}\n",
        "#if canImport(Lanes)\nimport Lanes\n#endif\nlet lanes = Lanefile {\n    Lane(\"a\", \"A\") {}\n    Lane(\"b\", \"B\") {}\n    Lane(\"c\", \"C\") {}\n}\n",
        "import Lanes; let x = 1\nlet lanes = Lanefile {\n    Lane(\"a\", \"A\") {}\n    Lane(\"b\", \"B\") {}\n    Lane(\"c\", \"C\") {}\n}\n",
        "import Lanes\nlet lanes = Lanefile {\n    Lane(\"a\", \"A\") {}\n    Lane(\"b\", \"B\") {}\n}\n",
    ])
    func staysOneFile(source: String) {
        #expect(parts(source) == nil, "\(source)")
    }

    /// Compiled, a split Lanefile lists its lanes with their lines, and a mistake in lane 40 of 60
    /// is reported at its line and column in the user's file, not in the copy.
    @Test func aSplitLanefileCompilesRunsAndReportsMistakesAtTheUsersLines() async throws {
        let project = LanesCommandLine.temporaryDirectory("split-lanefile")
        var lines = ["import Lanes", "", "let lanes = Lanefile {"]
        for index in 0..<60 {
            lines.append("    Lane(\"lane\(index)\", \"Lane \(index)\") {")
            lines.append("        try echo(\"lane \(index): \\(\(index) * 2)\")")
            lines.append("    }")
        }
        lines.append("    Finally { lane in try echo(\"done \\(lane)\") }")
        lines += ["}", ""]
        let lanefile = project.appendingPathComponent("Lanefile.swift")
        try lines.joined(separator: "\n").write(to: lanefile, atomically: true, encoding: .utf8)
        #expect(split(lines.joined(separator: "\n")) != nil, "the block is one the driver splits")
        let lanes = LanesCommandLine()
        let ran = try await lanes.run(["lane41"], in: project)
        #expect(ran.status == 0, "\(ran.output)")
        #expect(ran.standardOutput.contains("lane 41: 82"))
        #expect(ran.standardOutput.contains("done lane41"))
        let listed = try await lanes.run(["list", "--json"], in: project)
        #expect(listed.standardOutput.contains(#""name":"lane59""#))

        // Lane 40's body is on line 3 + 40 * 3 + 2 = 125; the mistake at column 18.
        lines[124] = "        try echo(undefinedName)"
        try lines.joined(separator: "\n").write(to: lanefile, atomically: true, encoding: .utf8)
        let failed = try await lanes.run(["list"], in: project)
        #expect(failed.status == 65)
        #expect(failed.standardError.contains("\(lanefile.path):125:18: error: cannot find 'undefinedName' in scope"), "\(failed.standardError)")
        #expect(!failed.standardError.contains("split-0-Lanefile.swift"), "names the user's file, never the copy")
        #expect(!failed.standardError.contains("part-0-"), "names the user's file, never a part")
    }
}
