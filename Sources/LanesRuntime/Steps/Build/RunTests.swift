import LanesBuild
#if canImport(FoundationEssentials)
internal import FoundationEssentials
#else
internal import Foundation
#endif
internal import LanesPlatform

/// `run_tests` (fastlane's scan): `xcodebuild build test` on simulators, or `swift test` in a Swift
/// package. XCTest and Swift Testing output become a typed result and a JUnit report; a failing test
/// fails the step and names the test, with its file and line.
///
/// Left to its defaults it does what scan does (scan/lib/scan/detect_values.rb, test_command_generator.rb):
/// the one workspace, else the one project, of the Lanefile's folder and its only shared scheme;
/// without devices, the first available simulator of the scheme's platform at or above its
/// deployment target (`platform=macOS` for a Mac app). It runs `swift test` only when given
/// `package_path`, or when the folder holds no Xcode workspace or project but a Package.swift.
public struct RunTests: Step {
    public typealias Output = TestRunResult

    public static let definition = StepDefinition(
        id: "run_tests",
        summary: "Run the tests (xcodebuild test on simulators, or swift test) and write a JUnit report",
        category: .test,
        examples: [
            StepExample(swift: #"try await runTests(scheme: "Brewer")"#, commandLine: ["scheme:Brewer"]),
            StepExample(swift: #"try await runTests(workspace: "Brewer.xcworkspace", devices: ["iPhone 15", "iPad Air"], scheme: "Brewer")"#,
                        commandLine: ["workspace:Brewer.xcworkspace", "devices:iPhone 15,iPad Air", "scheme:Brewer"]),
            StepExample(swift: #"let results = try await runTests(packagePath: "Example/Brewer")"#, commandLine: ["package_path:Example/Brewer"]),
            StepExample(swift: """
                try await runTests(scheme: "Brewer", project: "Brewer.xcodeproj", onlyTesting: ["BrewerTests/RecipeTests"],
                                   codeCoverage: true, numberOfRetries: 1, destination: "platform=macOS", xcargs: "-skipMacroValidation")
                """,
                        commandLine: ["project:Brewer.xcodeproj", "scheme:Brewer", "only_testing:BrewerTests/RecipeTests", "code_coverage:true",
                                      "number_of_retries:1", "destination:platform=macOS", "xcargs:-skipMacroValidation"]),
        ],
        aliases: ["scan"],
        ignoredOptions: [
            "output_style": "lanes summarises xcodebuild's output itself; the raw log is kept under .lanes/logs",
            "xcodebuild_formatter": "lanes summarises xcodebuild's output itself; the raw log is kept under .lanes/logs",
            "disable_xcpretty": "lanes does not pipe xcodebuild through xcpretty",
            "formatter": "lanes does not pipe xcodebuild through xcpretty",
            "xcpretty_formatter": "lanes does not pipe xcodebuild through xcpretty",
            "xcpretty_args": "lanes does not pipe xcodebuild through xcpretty",
            "suppress_xcode_output": "lanes shows failures and counts, and keeps the full log under .lanes/logs",
            "open_report": "lanes opens nothing; the JUnit report's path is printed",
            "output_types": "lanes always writes a JUnit report (junit_path) and keeps the .xcresult",
            "skip_slack": "run_tests posts nothing to Slack; call slack(...) in a hook",
            "app_name": "it only names fastlane's Slack message and log file",
        ]
    )

    // The founding Fastfile's runTests(workspace:devices:scheme:) keeps its argument names and order.
    @StepOption("workspace", "The .xcworkspace to test (default: the only one in the Lanefile's folder)", env: "LANES_WORKSPACE",
                fastlaneEnv: ["SCAN_WORKSPACE"])
    var workspace: String?
    @StepOption("devices", "Simulator names, one -destination each (default: the first available simulator of the scheme's platform)",
                fastlaneEnv: ["SCAN_DEVICES", "SCAN_DEVICE"], default: [], aliases: ["device"])
    var devices: [String]
    @StepOption("scheme", "The scheme to test (default: the only shared scheme)", env: "LANES_SCHEME", fastlaneEnv: ["SCAN_SCHEME"])
    var scheme: String?
    @StepOption("project", "The .xcodeproj to test, when there is no workspace (default: the only one in the Lanefile's folder)",
                fastlaneEnv: ["SCAN_PROJECT"])
    var project: String?
    @StepOption("configuration", "The build configuration", fastlaneEnv: ["SCAN_CONFIGURATION"])
    var configuration: String?
    @StepOption("package_path", "A Swift package to test with swift test", fastlaneEnv: ["SCAN_PACKAGE_PATH"])
    var packagePath: String?
    @StepOption("filter", "Only tests matching this (swift test --filter)")
    var filter: String?
    @StepOption("junit_path", "Where the JUnit report goes (default: .lanes/test-results/junit.xml, or OUTPUT_DIRECTORY/report.junit)")
    var junitPath: String?
    @StepOption("output_directory", "scan's report folder: the JUnit report goes there as report.junit", fastlaneEnv: ["SCAN_OUTPUT_DIRECTORY"])
    var outputDirectory: String?
    @StepOption("only_testing", "Run only these tests (-only-testing:, such as BrewerTests/RecipeTests/testScale)", fastlaneEnv: ["SCAN_ONLY_TESTING"],
                default: [])
    var onlyTesting: [String]
    @StepOption("skip_testing", "Skip these tests (-skip-testing:)", fastlaneEnv: ["SCAN_SKIP_TESTING"], default: [])
    var skipTesting: [String]
    @StepOption("code_coverage", "Gather code coverage (-enableCodeCoverage); the scheme decides when absent", fastlaneEnv: ["SCAN_CODE_COVERAGE"])
    var codeCoverage: Bool?
    @StepOption("result_bundle", "Keep the .xcresult bundle (result_bundle_path)", fastlaneEnv: ["SCAN_RESULT_BUNDLE"], default: true)
    var resultBundle: Bool
    @StepOption("result_bundle_path", "Where the .xcresult goes (default .lanes/results/SCHEME-test.xcresult)", fastlaneEnv: ["SCAN_RESULT_BUNDLE_PATH"])
    var resultBundlePath: String?
    @StepOption("build_for_testing", "Only build the tests (build-for-testing)", fastlaneEnv: ["SCAN_BUILD_FOR_TESTING"], default: false)
    var buildForTesting: Bool
    @StepOption("test_without_building", "Run tests built earlier (test-without-building)", fastlaneEnv: ["SCAN_TEST_WITHOUT_BUILDING"], default: false)
    var testWithoutBuilding: Bool
    @StepOption("skip_build", "Leave out scan's build action before test (xcodebuild test alone)", fastlaneEnv: ["SCAN_SKIP_BUILD"], default: false)
    var skipBuild: Bool
    @StepOption("number_of_retries", "Rerun a failing test up to this many times", default: 0)
    var numberOfRetries: Int
    @StepOption("destination", "A -destination instead of the devices' simulators (such as platform=macOS)", fastlaneEnv: ["SCAN_DESTINATION"])
    var destination: String?
    @StepOption("xcargs", "More xcodebuild arguments, split like a shell would", env: "LANES_XCARGS", fastlaneEnv: ["SCAN_XCARGS"])
    var xcargs: String?
    @StepOption("testplan", "The test plan (-testPlan)", fastlaneEnv: ["SCAN_TESTPLAN"])
    var testplan: String?
    @StepOption("clean", "Clean before testing", fastlaneEnv: ["SCAN_CLEAN"], default: false)
    var clean: Bool
    @StepOption("derived_data_path", "DerivedData folder (default .lanes/DerivedData)", fastlaneEnv: ["SCAN_DERIVED_DATA_PATH"])
    var derivedDataPath: String?
    @StepOption("sdk", "The SDK (-sdk)", fastlaneEnv: ["SCAN_SDK"])
    var sdk: String?
    @StepOption("fail_build", "Fail the step when tests fail (false: report and go on)", fastlaneEnv: ["SCAN_FAIL_BUILD"], default: true)
    var failBuild: Bool
    @StepOption("catalyst_platform", "ios or macos: where a Mac Catalyst app's tests run", fastlaneEnv: ["SCAN_CATALYST_PLATFORM"])
    var catalystPlatform: String?
    @StepOption("deployment_target_version", "The OS version simulators must have at least (default: the project's deployment target)",
                fastlaneEnv: ["SCAN_DEPLOYMENT_TARGET_VERSION"])
    var deploymentTargetVersion: String?
    @StepOption("toolchain", "The toolchain (-toolchain)", fastlaneEnv: ["SCAN_TOOLCHAIN"])
    var toolchain: String?
    @StepOption("xcconfig", "An .xcconfig to build with (-xcconfig)", fastlaneEnv: ["SCAN_XCCONFIG"])
    var xcconfig: String?
    @StepOption("parallel_testing", "-parallel-testing-enabled YES|NO; the scheme decides when absent", fastlaneEnv: ["SCAN_PARALLEL_TESTING"])
    var parallelTesting: Bool?
    @StepOption("concurrent_workers", "-parallel-testing-worker-count", fastlaneEnv: ["SCAN_CONCURRENT_WORKERS"])
    var concurrentWorkers: Int?
    @StepOption("address_sanitizer", "-enableAddressSanitizer YES|NO")
    var addressSanitizer: Bool?
    @StepOption("thread_sanitizer", "-enableThreadSanitizer YES|NO")
    var threadSanitizer: Bool?
    @StepOption("cloned_source_packages_path", "Where Swift packages are cloned (-clonedSourcePackagesDirPath)",
                fastlaneEnv: ["SCAN_CLONED_SOURCE_PACKAGES_PATH"])
    var clonedSourcePackagesPath: String?
    @StepOption("use_system_scm", "Use the system's git for packages (-scmProvider system)", fastlaneEnv: ["SCAN_USE_SYSTEM_SCM"], default: false)
    var useSystemSCM: Bool
    @StepOption("package_cache_path", "Swift package cache (-packageCachePath)", fastlaneEnv: ["SCAN_PACKAGE_CACHE_PATH"])
    var packageCachePath: String?
    @StepOption("disable_package_automatic_updates", "Keep Package.resolved as it is (-disableAutomaticPackageResolution)",
                fastlaneEnv: ["SCAN_DISABLE_PACKAGE_AUTOMATIC_UPDATES"], default: false)
    var disablePackageAutomaticUpdates: Bool
    @StepOption("skip_package_repository_fetches", "Do not fetch package repositories (-skipPackageUpdates)",
                fastlaneEnv: ["SCAN_SKIP_PACKAGE_REPOSITORY_FETCHES"], default: false)
    var skipPackageRepositoryFetches: Bool
    @StepOption("package_authorization_provider", "netrc or keychain (-packageAuthorizationProvider)", fastlaneEnv: ["SCAN_PACKAGE_AUTHORIZATION_PROVIDER"])
    var packageAuthorizationProvider: String?
    @StepOption("only_test_configurations", "Test plan configurations to run (-only-test-configuration)", fastlaneEnv: ["SCAN_ONLY_TEST_CONFIGURATIONS"],
                default: [])
    var onlyTestConfigurations: [String]
    @StepOption("skip_test_configurations", "Test plan configurations to skip (-skip-test-configuration)", fastlaneEnv: ["SCAN_SKIP_TEST_CONFIGURATIONS"],
                default: [])
    var skipTestConfigurations: [String]
    @StepOption("max_concurrent_simulators", "-maximum-concurrent-test-simulator-destinations", fastlaneEnv: ["SCAN_MAX_CONCURRENT_SIMULATORS"])
    var maxConcurrentSimulators: Int?
    @StepOption("disable_concurrent_testing", "Test the destinations one after another (-disable-concurrent-testing)",
                fastlaneEnv: ["SCAN_DISABLE_CONCURRENT_TESTING"], default: false)
    var disableConcurrentTesting: Bool
    @StepOption("run_rosetta_simulator", "Run the simulators under Rosetta (arch=x86_64 in each -destination)", fastlaneEnv: ["SCAN_RUN_ROSETTA_SIMULATOR"],
                default: false)
    var runRosettaSimulator: Bool

    public init() {}

    public var banner: String {
        workspace ?? project ?? packagePath.map { "swift test in \($0)" } ?? scheme.map { "Test \($0)" } ?? "Run the tests"
    }

    public func run(in context: StepContext) async throws -> TestRunResult {
        let step = Self.definition.id
        let invocation: ToolInvocation
        let name: String
        // scan tests a Swift package only when told to: with an Xcode project here, it is xcodebuild.
        let swiftPackage = packagePath ?? (workspace == nil && project == nil && !ProjectDiscovery.hasXcodeContainer(in: context)
                                           && FilePath.exists(context.resolve("Package.swift")) ? "." : nil)
        if let swiftPackage {
            invocation = SwiftPackageCommand.test(packagePath: swiftPackage, filter: filter)
            name = FilePath.name(of: context.resolve(swiftPackage) == context.projectDirectory + "/." ? context.projectDirectory : context.resolve(swiftPackage))
        } else {
            _ = try XcodebuildLocator.locate(pathVariable: context.environment["PATH"])
            guard !(buildForTesting && testWithoutBuilding) else {
                throw LanesError(.usage, "\(step): build_for_testing and test_without_building exclude each other")
            }
            guard numberOfRetries >= 0 else { throw LanesError(.usage, "\(step): number_of_retries must be 0 or more, not \(numberOfRetries)") }
            let container = try ProjectDiscovery.container(workspace: workspace, project: project, in: context, step: step)
            let schemes = XcodeSchemes(container, environment: context.environment)
            let scheme = try schemes.select(self.scheme, container: container, environment: context.environment, step: step, log: context.log)
            let bundle = resultBundle
                ? context.resolve(resultBundlePath ?? LanesBuildFolders.results(root: context.projectDirectory) + "/\(scheme)-test.xcresult")
                : nil
            // xcodebuild refuses to overwrite a result bundle.
            if let bundle { FilePath.removeTree(bundle) }
            var request = TestRequest(
                container: container, scheme: scheme,
                destinations: try await destinations(scheme: scheme, schemes: schemes, container: container, context: context),
                configuration: configuration, sdk: sdk, clean: clean,
                derivedDataPath: derivedDataPath.map(context.resolve) ?? LanesBuildFolders.derivedData(root: context.projectDirectory),
                resultBundlePath: bundle)
            request.onlyTesting = onlyTesting
            request.skipTesting = skipTesting
            request.codeCoverage = codeCoverage
            request.retries = numberOfRetries
            request.testPlan = testplan
            request.buildBeforeTest = !skipBuild
            var extra: [String] = []
            if let toolchain { extra += ["-toolchain", toolchain] }
            if let xcconfig { extra += ["-xcconfig", context.resolve(xcconfig)] }
            if useSystemSCM { extra += ["-scmProvider", "system"] }
            if let parallelTesting { extra += ["-parallel-testing-enabled", parallelTesting ? "YES" : "NO"] }
            if let concurrentWorkers { extra += ["-parallel-testing-worker-count", String(concurrentWorkers)] }
            if let addressSanitizer { extra += ["-enableAddressSanitizer", addressSanitizer ? "YES" : "NO"] }
            if let threadSanitizer { extra += ["-enableThreadSanitizer", threadSanitizer ? "YES" : "NO"] }
            if let clonedSourcePackagesPath { extra += ["-clonedSourcePackagesDirPath", context.resolve(clonedSourcePackagesPath)] }
            if let packageCachePath { extra += ["-packageCachePath", context.resolve(packageCachePath)] }
            if disablePackageAutomaticUpdates { extra.append("-disableAutomaticPackageResolution") }
            if skipPackageRepositoryFetches { extra.append("-skipPackageUpdates") }
            if let packageAuthorizationProvider { extra += ["-packageAuthorizationProvider", packageAuthorizationProvider] }
            if let maxConcurrentSimulators { extra += ["-maximum-concurrent-test-simulator-destinations", String(maxConcurrentSimulators)] }
            if disableConcurrentTesting { extra.append("-disable-concurrent-testing") }
            extra += onlyTestConfigurations.flatMap { ["-only-test-configuration", $0] }
            extra += skipTestConfigurations.flatMap { ["-skip-test-configuration", $0] }

            request.extraArguments = extra + (try xcargs.map { try ShellWords.split($0) } ?? [])
            request.phase = buildForTesting ? .buildForTesting : testWithoutBuilding ? .testWithoutBuilding : .buildAndTest
            invocation = ToolInvocation(XcodebuildCommand.test(request).arguments)
            name = scheme
        }
        let run = try await BuildToolRun(context: context, label: "run_tests").run(invocation)
        let results = run.tests
        let report = context.resolve(junitPath ?? outputDirectory.map { $0 + "/report.junit" } ?? ".lanes/test-results/junit.xml")
        try FilePath.makeDirectories(FilePath.directory(of: report))
        try JUnitReport.write(results, name: name, to: report)
        context.log.line("\(results.summaryLine); JUnit report: \(report)")
        guard results.succeeded, run.outcome.succeeded else {
            let failure = TestFailures(results: results, buildErrors: run.summary.errors, outcome: run.outcome, logPath: run.logPath)
            // scan's fail_build: false reports the failures and lets the lane go on.
            guard failBuild || results.failedTests.isEmpty else {
                context.log.line("tests failed, and fail_build is false: \(results.failedCount) failure(s) reported, the lane goes on")
                return results
            }
            throw failure
        }
        // Building for testing runs no test: success is the build's.
        guard !buildForTesting || invocation.arguments.first != "xcodebuild" else { return results }
        guard results.total > 0 else {
            throw LanesError(.laneFailure, "\(step): no test ran", hint: "check the scheme or the filter; full log: \(run.logPath)")
        }
        return results
    }

    /// The given destination or devices, else scan's: Mac Catalyst's or a Mac app's platform, else a
    /// simulator chosen from simctl.
    private func destinations(scheme: String, schemes: XcodeSchemes, container: XcodeContainer,
                              context: StepContext) async throws -> [TestDestination] {
        let arch = runRosettaSimulator ? ",arch=x86_64" : ""
        if let destination { return [TestDestination(specifier: destination)] }
        if !devices.isEmpty { return devices.map { TestDestination(specifier: TestDestination.simulator($0).specifier + arch) } }
        var platform = SchemePlatform.detect(scheme: schemes.scheme(named: scheme), schemeName: scheme,
                                             fallbackProject: container.projectPath ?? XcodeSchemes.projects(of: container.path).first)
        if catalystPlatform == "macos" && platform.supportsMacCatalyst { return [TestDestination(specifier: "platform=macOS,variant=Mac Catalyst")] }
        if let deploymentTargetVersion { platform.deploymentTarget = deploymentTargetVersion }
        let chosen = try await SimulatorDiscovery.defaultDestination(platform: platform, context: context, step: Self.definition.id)
        return [TestDestination(specifier: chosen.specifier + (chosen.specifier.contains("Simulator") ? arch : ""))]
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
