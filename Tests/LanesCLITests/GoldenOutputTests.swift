import LanesTestSupport
import Foundation
import Testing

/// Whole CLI outputs that must not drift, compared with files in `Golden/`. After an intended change,
/// rewrite them with `LANES_UPDATE_GOLDEN=1 swift test --filter GoldenOutputTests`: that run fails on
/// purpose, so an update can never pass as a green run; review the diff and run the tests again.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct GoldenOutputTests {
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Golden")
    let lanes = LanesCommandLine()

    @Test(arguments: [
        (["actions", "sh"], "actions-sh.txt"),
        (["actions", "import_certificate"], "actions-import_certificate.txt"),
        (["list"], "list-basic.txt"),
        (["list", "--json"], "list-basic.json"),
        (["deploy"], "unknown-lane.stderr"),
    ])
    func matchesGolden(arguments: [String], file: String) async throws {
        let project = try LanesCommandLine.project("basic")
        let result = try await lanes.run(arguments, in: project)
        // Whether this run compiled the Lanefile depends on test order; the rest must not vary.
        let actual = (file.hasSuffix(".stderr") ? result.standardError : result.standardOutput)
            .split(separator: "\n", omittingEmptySubsequences: false).filter { !$0.hasPrefix("Compiling ") }.joined(separator: "\n")
        let golden = Self.directory.appendingPathComponent(file)
        if ProcessInfo.processInfo.environment["LANES_UPDATE_GOLDEN"] == "1" {
            try actual.write(to: golden, atomically: true, encoding: .utf8)
            Issue.record("rewrote Golden/\(file); review the diff, then run the tests without LANES_UPDATE_GOLDEN")
            return
        }
        let expected = try String(contentsOf: golden, encoding: .utf8)
        #expect(actual == expected, "lanes \(arguments.joined(separator: " ")) differs from Golden/\(file)")
    }
}
