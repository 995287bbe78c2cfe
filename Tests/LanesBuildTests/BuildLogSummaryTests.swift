import Testing
@testable import LanesBuild

/// Summaries of the recorded logs in Fixtures/logs: every error surfaces with its kind and location,
/// warnings stay warnings.
@Suite(.timeLimit(.minutes(10))) struct BuildLogSummaryTests {
    @Test func cleanArchiveHasWarningsOnly() throws {
        let summary = try Fixture.summary(ofLog: "archive-succeeded.log")
        #expect(summary.errorCount == 0)
        #expect(summary.errors.isEmpty)
        #expect(summary.warningCount == 5)
        #expect(summary.warnings.map(\.location) == [
            "/Users/ci/Brewer/BrewerKit/Grinder.swift:41:13", "/Users/ci/Brewer/BrewerKit/Recipe.swift:8:5",
            "/Users/ci/Brewer/BrewerKit/Scale.m:22:9", nil, nil,
        ])
        #expect(summary.warnings[1].target == "BrewerKit")
        #expect(summary.warnings[1].message == "'init(grams:)' is deprecated: use init(dose:)")
        #expect(summary.warnings[3].kind == .linker)
        #expect(summary.phases == [.archive, .resolve, .compile, .link, .sign])
        #expect(summary.outcomes == ["ARCHIVE SUCCEEDED"])
    }

    @Test func compilerErrorsSwiftClangObjectiveC() throws {
        let summary = try Fixture.summary(ofLog: "compile-errors.log")
        #expect(summary.errors.map(\.rendered) == [
            "/Users/ci/Brewer/Brewer/BrewView.swift:17:25: error: cannot find 'brewRatio' in scope [Brewer]",
            "/Users/ci/Brewer/Brewer/BrewView.swift:44:18: error: value of type 'Recipe' has no member 'waterTemperature' [Brewer]",
            "/Users/ci/Brewer/BrewerKit/Scale.m:31:5: error: use of undeclared identifier 'tareWeight' [BrewerKit]",
            "/Users/ci/Brewer/BrewerKit/Scale.h:12:1: error: 'BrewerKit/Units.h' file not found [BrewerKit]",
            "error: no such file or directory: '/Users/ci/Brewer/BrewerKit/Kettle.c' [BrewerKit]",
            "error: no input files [BrewerKit]",
            "error: unable to load standard library for target 'arm64-apple-ios16.0' [BrewerKit]",
            "error: emit-module command failed with exit code 1 (use -v to see invocation) [BrewerKit]",
        ])
        #expect(summary.errors.allSatisfy { $0.kind == .compiler || $0.kind == .build })
        #expect(summary.errors[4].file == nil)
        #expect(summary.errors[4].kind == .compiler)
        #expect(summary.errorCount == 8)
        #expect(summary.warningCount == 1)
        #expect(summary.outcomes == ["ARCHIVE FAILED"])
    }

    @Test func linkerReportsAreErrorsWithTheirSymbols() throws {
        let summary = try Fixture.summary(ofLog: "linker-errors.log")
        #expect(summary.errors.map(\.kind) == [.linker, .linker, .linker, .linker])
        #expect(summary.errors.map(\.message) == [
            "Undefined symbols for architecture arm64: _OBJC_CLASS_$_BRWScale, _brw_tare_weight (ld: symbol(s) not found for architecture arm64)",
            "Undefined symbols: _kettleTemperature",
            "duplicate symbol '_brw_grind_size' in: /Users/ci/Brewer/.lanes/DerivedData/Grinder.o, /Users/ci/Brewer/.lanes/DerivedData/Burr.o (ld: 1 duplicate symbols)",
            "library 'Sentry' not found",
        ])
        #expect(summary.errors.map(\.target) == ["Brewer", "BrewerWidget", "BrewerKit", "brewer-cli"])
        #expect(summary.warningCount == 0)
    }

    @Test func failingRunScriptPhaseIsAnError() throws {
        let summary = try Fixture.summary(ofLog: "script-phase.log")
        #expect(summary.errorCount == 1)
        #expect(summary.errors.first?.kind == .scriptPhase)
        #expect(summary.errors.first?.target == "Brewer")
        #expect(summary.errors.first?.message == "Command PhaseScriptExecution failed with a nonzero exit code")
        // SwiftLint's warning stays a warning.
        #expect(summary.warningCount == 1)
        #expect(summary.warnings.first?.location == "/Users/ci/Brewer/Brewer/BrewView.swift:52:1")
    }

    @Test func packageResolutionFailureCarriesItsReason() throws {
        let summary = try Fixture.summary(ofLog: "package-resolution.log")
        #expect(summary.errors == [BuildIssue(
            severity: .error, kind: .packageResolution,
            message: "Could not resolve package dependencies: Failed to clone repository git@github.com:sthlmworks/BrewerCore.git:")])
        #expect(summary.phases == [.archive, .resolve])
    }

    @Test func macroTrust() throws {
        let summary = try Fixture.summary(ofLog: "macro-trust.log")
        #expect(summary.errors.map(\.kind) == [.macroTrust, .macroTrust])
        #expect(summary.errors[0].message == "Target 'BrewingMacros' must be enabled before it can be used.")
        #expect(summary.errors[1].location == "/Users/ci/Brewer/Brewer/Recipes.swift:3:1")
        #expect(summary.errors[1].target == "Brewer")
        #expect(summary.errorCount == 2)
    }

    @Test func signingErrors() throws {
        let summary = try Fixture.summary(ofLog: "signing.log")
        #expect(summary.errors.map(\.kind) == Array(repeating: .signing, count: 5))
        #expect(summary.errors.map(\.target) == ["Brewer", "BrewerWidget", "BrewerKit", "Brewer", "Brewer"])
        #expect(summary.errors[0].message.hasPrefix("No profiles for 'works.sth.brewer' were found"))
        #expect(summary.errors[1].message.hasPrefix("No signing certificate \"iOS Distribution\" found"))
        #expect(summary.errors[2].message.hasPrefix("\"BrewerKit\" requires a provisioning profile"))
        #expect(summary.errors[0].file == "/Users/ci/Brewer/Brewer.xcodeproj")
        #expect(summary.errors[0].line == nil)
        #expect(summary.warningCount == 1)
        #expect(summary.errorCount == 5)
    }

    @Test func exportFailure() throws {
        let summary = try Fixture.summary(ofLog: "export-failed.log")
        #expect(summary.errors == [BuildIssue(severity: .error, kind: .export, message: "exportArchive: No signing certificate \"iOS Distribution\" found")])
        #expect(summary.outcomes == ["EXPORT FAILED"])
        #expect(summary.phases == [.export])

        let silent = try Fixture.summary(ofLog: "export-silent.log")
        #expect(silent.errors.map(\.kind) == [.export])
        #expect(silent.errors.first?.message == "xcodebuild reported ** EXPORT FAILED ** without an error line")
    }

    @Test func xcodebuildTestFailuresAndCrash() throws {
        let summary = try Fixture.summary(ofLog: "xcodebuild-test.log")
        #expect(summary.errors.map(\.kind) == [.testFailure, .testCrash, .testCrash])
        #expect(summary.errors[0].test == "-[BrewerTests.RecipeTests testRatioText]")
        #expect(summary.errors[0].location == "/Users/ci/Brewer/BrewerTests/RecipeTests.swift:27")
        #expect(summary.errors[0].message == "XCTAssertEqual failed: (\"1:15\") is not equal to (\"1:16\") - ratio <text> & \"quotes\"")
        // Issue 21: the summary line says which test failed, not only what.
        #expect(summary.errors[0].rendered.hasPrefix("/Users/ci/Brewer/BrewerTests/RecipeTests.swift:27: error: -[BrewerTests.RecipeTests testRatioText] : XCTAssertEqual failed"),
                "\(summary.errors[0].rendered)")
        #expect(summary.errors[1].test == "GrinderTests.testBurrReset()")
        #expect(summary.errors[2].message.hasPrefix("Brewer (51301) encountered an error (Crash:"))
        #expect(summary.outcomes == ["TEST FAILED"])
        #expect(summary.phases == [.test])
    }

    @Test func swiftTestingInXcode() throws {
        let summary = try Fixture.summary(ofLog: "xcodebuild-swift-testing.log")
        #expect(summary.errors == [BuildIssue(severity: .error, kind: .testFailure, file: "RecipeSpec.swift", line: 19, column: 9,
                                              message: "Expectation failed: (recipe.ratio → 15) == 16", test: "pourOverRatio()")])
        #expect(summary.outcomes == ["Test run with 3 tests failed", "TEST FAILED"])
    }

    @Test func swiftTestOnLinux() throws {
        let summary = try Fixture.summary(ofLog: "swift-test-linux.log")
        #expect(summary.errors.map(\.rendered) == [
            "/src/TestOutputPackage/Tests/BrewingTests/BrewingXCTests.swift:6: error: BrewingXCTests.testLongBrew : XCTAssertEqual failed: (\"60\") is not equal to (\"61\") - a <long> brew & more",
            "error: BrewingXCTests.testThrows : threw error \"Error Domain=NSCocoaErrorDomain Code=4 \"The file doesn’t exist.\"\"",
            "BrewingSwiftTests.swift:5:25: error: pourOver() : Expectation failed: (brewTime(grams: 15) → 45) == 44",
            "BrewingSwiftTests.swift:6:55: error: ristretto(grams:) : Expectation failed: (brewTime(grams: grams) → 6) == 3",
        ])
        #expect(summary.errors.map(\.test) == ["BrewingXCTests.testLongBrew", "BrewingXCTests.testThrows", "pourOver()", "ristretto(grams:)"])
        #expect(summary.phases.contains(.compile) && summary.phases.contains(.test))
    }

    @Test func swiftBuildErrorsIgnoreSourceExcerpts() throws {
        let summary = try Fixture.summary(ofLog: "swift-build-errors.log")
        #expect(summary.errorCount == 1)
        #expect(summary.warningCount == 1)
        #expect(summary.errors.first?.location == "/src/brewer/Sources/Brewing/Brewing.swift:4:12")
    }

    @Test func aFailedBuildNeverLooksClean() {
        var summarizer = BuildLogSummarizer()
        for line in ["CompileSwift normal arm64 /a.swift (in target 'A' from project 'A')", "** BUILD FAILED **"] {
            summarizer.consume(line: line)
        }
        let summary = summarizer.finish()
        #expect(summary.errorCount == 1)
        #expect(summary.errors.first?.kind == .build)
    }

    @Test func warningLinesAreNeverErrors() {
        var summarizer = BuildLogSummarizer()
        for line in [
            "/a/B.swift:1:2: warning: 'x' is deprecated: error: in the message",
            "warning: error-prone setting",
            "ld: warning: object file was built for newer iOS version",
            "/a/B.m:3:4: warning: implicit conversion loses integer precision [-Wshorten-64-to-32]",
        ] {
            summarizer.consume(line: line)
        }
        let summary = summarizer.finish()
        #expect(summary.errorCount == 0)
        #expect(summary.warningCount == 4)
    }

    /// Bytes in chunks of any size (lines cut anywhere, CRLF endings) give the same summary as lines.
    @Test(arguments: [1, 7, 100, 4096, 1 << 20])
    func chunkedBytesMatchLines(chunkSize: Int) throws {
        for name in ["compile-errors.log", "linker-errors.log", "xcodebuild-test.log", "swift-test-linux.log", "signing.log"] {
            let expected = try Fixture.summary(ofLog: name)
            let bytes = try Fixture.bytes("logs/" + name)
            for crlf in [false, true] {
                let input = crlf ? Array(String(decoding: bytes, as: UTF8.self).replacingOccurrences(of: "\n", with: "\r\n").utf8) : bytes
                var summarizer = BuildLogSummarizer()
                var events: [BuildLogEvent] = []
                var offset = 0
                while offset < input.count {
                    let end = min(offset + chunkSize, input.count)
                    summarizer.consume(bytes: Array(input[offset..<end])) { events.append($0) }
                    offset = end
                }
                var summary = summarizer.finish { events.append($0) }
                #expect(summary.errors == expected.errors, "\(name) in chunks of \(chunkSize)")
                #expect(summary.warnings == expected.warnings)
                #expect(summary.phases == expected.phases)
                #expect(events.filter { if case .issue = $0 { true } else { false } }.count == summary.errorCount + summary.warningCount)
                summary.byteCount = expected.byteCount
                summary.lineCount = expected.lineCount
                #expect(summary == expected)
            }
        }
    }

    @Test func issueListsAreBoundedButCountsAreExact() {
        var summarizer = BuildLogSummarizer(issueLimit: 3)
        for index in 0..<10 { summarizer.consume(line: "/a/B.swift:\(index + 1):1: error: broken \(index)") }
        let summary = summarizer.finish()
        #expect(summary.errorCount == 10)
        #expect(summary.errors.count == 3)
    }
}
