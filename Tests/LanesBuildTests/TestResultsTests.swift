import LanesTestSupport
import Foundation
import LanesPlatform
import Testing
@testable import LanesBuild

@Suite(.timeLimit(.minutes(10))) struct TestResultsTests {
    static func parse(_ name: String) throws -> TestRunResult {
        var parser = TestOutputParser()
        for line in try Fixture.text("logs/" + name).split(separator: "\n", omittingEmptySubsequences: false) {
            parser.consume(line: String(line))
        }
        return parser.finish()
    }

    /// Real `swift test` output on Linux (Swift 6.3), XCTest and Swift Testing in one run.
    @Test func swiftTestOnLinux() throws {
        let run = try Self.parse("swift-test-linux.log")
        #expect(run.summaryLine == "6 tests: 2 passed, 4 failed, 0 skipped")
        let failed = run.failedTests
        #expect(failed.map(\.fullName) == ["BrewingXCTests.testLongBrew", "BrewingXCTests.testThrows",
                                           "Swift Testing.pourOver()", "Swift Testing.ristretto(grams:)"])
        #expect(failed[0].failures == [TestFailure(file: "/src/TestOutputPackage/Tests/BrewingTests/BrewingXCTests.swift", line: 6,
                                                   message: "XCTAssertEqual failed: (\"60\") is not equal to (\"61\") - a <long> brew & more")])
        #expect(failed[1].failures.first?.file == nil)
        #expect(failed[2].failures == [TestFailure(file: "BrewingSwiftTests.swift", line: 5, message: "Expectation failed: (brewTime(grams: 15) → 45) == 44")])
        #expect(failed[3].failures.first?.line == 6)
        #expect(run.cases.first { $0.name == "testShortBrew" }?.duration == 0.101)
    }

    @Test func xcodebuildXCTestWithACrash() throws {
        let run = try Self.parse("xcodebuild-test.log")
        #expect(run.summaryLine == "5 tests: 2 passed, 2 failed, 1 skipped")
        #expect(run.failedTests.map(\.fullName) == ["BrewerTests.RecipeTests.testRatioText", "BrewerTests.GrinderTests.testBurrReset"])
        #expect(run.failedTests[0].failures.first?.line == 27)
        #expect(run.failedTests[1].failures.first?.message.hasPrefix("Restarting after unexpected exit") == true)
    }

    @Test func xcodebuildSwiftTesting() throws {
        let run = try Self.parse("xcodebuild-swift-testing.log")
        #expect(run.summaryLine == "3 tests: 1 passed, 1 failed, 1 skipped")
        #expect(run.failedTests.first?.failures == [TestFailure(file: "RecipeSpec.swift", line: 19, message: "Expectation failed: (recipe.ratio → 15) == 16")])
    }

    @Test func aTestThatNeverEndsFailed() {
        var parser = TestOutputParser()
        parser.consume(line: "Test Case 'GrinderTests.testBurr' started at 2026-11-23 01:01:24.052")
        parser.consume(line: "Swift/ContiguousArrayBuffer.swift:690: Fatal error: Index out of range")
        let run = parser.finish()
        #expect(run.failedTests.map(\.fullName) == ["GrinderTests.testBurr"])
        #expect(run.failedTests[0].failures.first == TestFailure(file: "Swift/ContiguousArrayBuffer.swift", line: 690, message: "Fatal error: Index out of range"))
    }

    @Test func junitHasOneCasePerTestAndEscapes() async throws {
        let run = try Self.parse("xcodebuild-test.log")
        let xml = JUnitReport.xml(run, name: "Brewer & <friends>")
        #expect(xml.contains("<testsuites name=\"Brewer &amp; &lt;friends&gt;\" tests=\"5\" failures=\"2\" skipped=\"1\""))
        #expect(xml.components(separatedBy: "<testcase ").count - 1 == 5)
        #expect(xml.contains("<testcase classname=\"BrewerTests.RecipeTests\" name=\"testRatioText\" time=\"0.004\" file=\"/Users/ci/Brewer/BrewerTests/RecipeTests.swift\" line=\"27\">"))
        #expect(xml.contains("<failure message=\"XCTAssertEqual failed: (&quot;1:15&quot;) is not equal to (&quot;1:16&quot;) - ratio &lt;text&gt; &amp; &quot;quotes&quot;\" type=\"failure\">"))
        #expect(MarkupText.escape("a\u{1B}b'") == "a\u{FFFD}b&apos;")
        // An independent XML parser reads it back with the same counts.
        let directory = LanesCommandLine.temporaryDirectory("build-junit").path
        defer { try? FileManager.default.removeItem(atPath: directory) }
        let path = directory + "/report.xml"
        try JUnitReport.write(run, name: "Brewer & <friends>", to: path)
        let check = try await Program.streams(["python3", "-c", """
            import sys, xml.etree.ElementTree as ET
            root = ET.parse(sys.argv[1]).getroot()
            cases = root.findall('.//testcase')
            print(root.get('name'), len(cases), len(root.findall('.//failure')), len(root.findall('.//skipped')), cases[1].find('failure').get('message'))
            """, path])
        #expect(check.status == 0, "\(check.error)")
        #expect(check.output == "Brewer & <friends> 5 2 1 XCTAssertEqual failed: (\"1:15\") is not equal to (\"1:16\") - ratio <text> & \"quotes\"\n")
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory) == ["report.xml"])
    }
}
