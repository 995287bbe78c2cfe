import LanesBuild
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform

/// `run_tests`: `xcodebuild test` on one or more simulators, or `swift test` in a package. XCTest and
/// Swift Testing output become a typed result and a JUnit report; a failing test fails the step and
/// names the test, with its file and line.
public struct RunTests: Step {
    public typealias Output = TestRunResult

    public static let definition = StepDefinition(
        id: "run_tests",
        summary: "Run the tests (xcodebuild test on simulators, or swift test) and write a JUnit report",
        category: .test,
        examples: [
            StepExample(swift: #"try await runTests(workspace: "Brewer.xcworkspace", devices: ["iPhone 15", "iPad Air"], scheme: "Brewer")"#,
                        commandLine: ["workspace:Brewer.xcworkspace", "devices:iPhone 15,iPad Air", "scheme:Brewer"]),
            StepExample(swift: #"let results = try await runTests(packagePath: "Example/Brewer")"#, commandLine: ["package_path:Example/Brewer"]),
            StepExample(swift: """
                try await runTests(scheme: "Brewer", project: "Brewer.xcodeproj", onlyTesting: ["BrewerTests/RecipeTests"],
                                   codeCoverage: true, numberOfRetries: 1, destination: "platform=macOS", xcargs: "-skipMacroValidation")
                """,
                        commandLine: ["project:Brewer.xcodeproj", "scheme:Brewer", "only_testing:BrewerTests/RecipeTests", "code_coverage:true",
                                      "number_of_retries:1", "destination:platform=macOS", "xcargs:-skipMacroValidation"]),
        ]
    )

    // The founding Fastfile's runTests(workspace:devices:scheme:) keeps its argument names and order.
    @StepOption("workspace", "The .xcworkspace to test (or give project; neither: swift test)", env: "LANES_WORKSPACE")
    var workspace: String?
    @StepOption("devices", "Simulator names, one -destination each (comma-separated on the command line)", default: [])
    var devices: [String]
    @StepOption("scheme", "The scheme to test", env: "LANES_SCHEME")
    var scheme: String?
    @StepOption("project", "The .xcodeproj to test, when there is no workspace")
    var project: String?
    @StepOption("configuration", "The build configuration")
    var configuration: String?
    @StepOption("package_path", "A Swift package to test with swift test (when no workspace or project is given)", default: ".")
    var packagePath: String
    @StepOption("filter", "Only tests matching this (swift test --filter)")
    var filter: String?
    @StepOption("junit_path", "Where the JUnit report goes", default: ".lanes/test-results/junit.xml")
    var junitPath: String
    @StepOption("only_testing", "Run only these tests (-only-testing:, such as BrewerTests/RecipeTests/testScale)", default: [])
    var onlyTesting: [String]
    @StepOption("skip_testing", "Skip these tests (-skip-testing:)", default: [])
    var skipTesting: [String]
    @StepOption("code_coverage", "Gather code coverage (-enableCodeCoverage); the scheme decides when absent")
    var codeCoverage: Bool?
    @StepOption("result_bundle", "Keep the .xcresult bundle (result_bundle_path)", default: true)
    var resultBundle: Bool
    @StepOption("result_bundle_path", "Where the .xcresult goes (default .lanes/results/SCHEME-test.xcresult)")
    var resultBundlePath: String?
    @StepOption("build_for_testing", "Only build the tests (build-for-testing)", default: false)
    var buildForTesting: Bool
    @StepOption("test_without_building", "Run tests built earlier (test-without-building)", default: false)
    var testWithoutBuilding: Bool
    @StepOption("number_of_retries", "Rerun a failing test up to this many times", default: 0)
    var numberOfRetries: Int
    @StepOption("destination", "A -destination instead of the devices' simulators (such as platform=macOS)")
    var destination: String?
    @StepOption("xcargs", "More xcodebuild arguments, split like a shell would", env: "LANES_XCARGS")
    var xcargs: String?
    @StepOption("testplan", "The test plan (-testPlan)")
    var testplan: String?
    @StepOption("clean", "Clean before testing", default: false)
    var clean: Bool
    @StepOption("derived_data_path", "DerivedData folder (default .lanes/DerivedData)")
    var derivedDataPath: String?

    public init() {}

    public var banner: String {
        workspace ?? project ?? (packagePath == "." ? "swift test" : "swift test in \(packagePath)")
    }

    public func run(in context: StepContext) async throws -> TestRunResult {
        let invocation: ToolInvocation
        let name: String
        if workspace != nil || project != nil {
            _ = try XcodebuildLocator.locate(pathVariable: context.environment["PATH"])
            guard let scheme else { throw LanesError(.usage, "run_tests: an Xcode test needs a scheme", hint: "scheme:Brewer") }
            guard !(buildForTesting && testWithoutBuilding) else {
                throw LanesError(.usage, "run_tests: build_for_testing and test_without_building exclude each other")
            }
            guard numberOfRetries >= 0 else { throw LanesError(.usage, "run_tests: number_of_retries must be 0 or more, not \(numberOfRetries)") }
            let bundle = resultBundle
                ? context.resolve(resultBundlePath ?? LanesBuildFolders.results(root: context.projectDirectory) + "/\(scheme)-test.xcresult")
                : nil
            // xcodebuild refuses to overwrite a result bundle.
            if let bundle { FilePath.removeTree(bundle) }
            var request = TestRequest(
                container: try XcodeContainer.chosen(workspace: workspace, project: project, in: context), scheme: scheme,
                destinations: destination.map { [TestDestination(specifier: $0)] } ?? devices.map { TestDestination.simulator($0) },
                configuration: configuration, clean: clean,
                derivedDataPath: derivedDataPath.map(context.resolve) ?? LanesBuildFolders.derivedData(root: context.projectDirectory),
                resultBundlePath: bundle)
            request.onlyTesting = onlyTesting
            request.skipTesting = skipTesting
            request.codeCoverage = codeCoverage
            request.retries = numberOfRetries
            request.testPlan = testplan
            request.extraArguments = try xcargs.map { try ShellWords.split($0) } ?? []
            request.phase = buildForTesting ? .buildForTesting : testWithoutBuilding ? .testWithoutBuilding : .buildAndTest
            invocation = ToolInvocation(XcodebuildCommand.test(request).arguments)
            name = scheme
        } else {
            invocation = SwiftPackageCommand.test(packagePath: packagePath, filter: filter)
            name = FilePath.name(of: context.resolve(packagePath) == context.projectDirectory + "/." ? context.projectDirectory : context.resolve(packagePath))
        }
        let run = try await BuildToolRun(context: context, label: "run_tests").run(invocation)
        let results = run.tests
        let report = context.resolve(junitPath)
        try FilePath.makeDirectories(FilePath.directory(of: report))
        try JUnitReport.write(results, name: name, to: report)
        context.log.line("\(results.summaryLine); JUnit report: \(report)")
        guard results.succeeded, run.outcome.succeeded else {
            throw TestFailures(results: results, buildErrors: run.summary.errors, outcome: run.outcome, logPath: run.logPath)
        }
        // Building for testing runs no test: success is the build's.
        guard !buildForTesting || invocation.arguments.first != "xcodebuild" else {
            guard run.outcome.succeeded else {
                throw BuildToolFailure(tool: "xcodebuild build-for-testing", summary: run.summary, outcome: run.outcome, logPath: run.logPath)
            }
            return results
        }
        guard results.total > 0 else {
            throw LanesError(.laneFailure, "run_tests: no test ran", hint: "check the scheme or the filter; full log: \(run.logPath)")
        }
        return results
    }
}

/// Tests failed (or the tests did not build): each failing test with its file, line and message.
struct TestFailures: Error, ClassifiedError, CustomStringConvertible {
    let results: TestRunResult
    let buildErrors: [BuildIssue]
    let outcome: ProcessOutcome
    let logPath: String

    var lanesKind: ErrorKind { .laneFailure }

    var description: String {
        var lines: [String] = []
        if results.failedTests.isEmpty {
            lines.append("the tests did not run to the end (\(buildErrors.count) error\(buildErrors.count == 1 ? "" : "s"))")
            lines += buildErrors.prefix(20).map { "  \($0.rendered)" }
        } else {
            lines.append("\(results.failedCount) of \(results.total) tests failed:")
            for test in results.failedTests.prefix(30) {
                lines.append("  \(test.fullName)")
                for failure in test.failures.prefix(3) {
                    let location = failure.file.map { "\($0):\(failure.line.map(String.init) ?? "?"): " } ?? ""
                    lines.append("    \(location)\(failure.message)")
                }
            }
        }
        lines.append("full log: \(logPath)")
        return lines.joined(separator: "\n")
    }
}

extension TestRunResult: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(
            lines: [summaryLine] + failedTests.map { "failed: \($0.fullName)" },
            json: .object([("total", .number(Double(total))), ("passed", .number(Double(passedCount))),
                           ("failed", .number(Double(failedCount))), ("skipped", .number(Double(skippedCount))),
                           ("failures", .array(failedTests.map { test in
                               .object([("test", .string(test.fullName)),
                                        ("messages", .array(test.failures.map { .string($0.message) }))])
                           }))]))
    }
}
