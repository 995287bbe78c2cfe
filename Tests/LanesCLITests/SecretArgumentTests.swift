import LanesPlatform
import Foundation
import LanesTestSupport
import Testing

/// Issue 31: a secret in any step's child arguments (readable by every local user through `ps` and
/// `/proc/PID/cmdline`) is refused by one check in the runner, before the child starts, with an
/// error naming the step and the option that carried it. Only `sh` used to check.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct SecretArgumentTests {
    let lanes = LanesCommandLine()
    static let secret = "argv-secret-\(UInt32.random(in: 100_000...999_999))"

    /// A project with the xcodebuild stand-in first on PATH and a secret-named variable.
    func xcodeProject() -> (URL, [String: String], URL) {
        let directory = LanesCommandLine.temporaryDirectory("secret-argv")
        let record = directory.appendingPathComponent("xcodebuild-calls.txt")
        let environment = ["PATH": "\(BuildStepTests.standIn):/usr/bin:/bin", "XCODEBUILD_RECORD": record.path,
                           "XCODEBUILD_IPA": BuildStepTests.buildFixtures.appendingPathComponent("ipa/Brewer-Staging.ipa").path,
                           "DEPLOY_TOKEN": Self.secret]
        return (directory, environment, record)
    }

    func expectRefused(_ result: ProgramResult, step: String, option: String, program: String,
                       sourceLocation: SourceLocation = #_sourceLocation) {
        #expect(result.status == 78, "\(result.output)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains("\(step): refusing to start \(program) with a secret in its arguments"),
                "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(result.standardError.contains("option '\(option)'"), "\(result.standardError)", sourceLocation: sourceLocation)
        #expect(!result.output.contains(Self.secret), sourceLocation: sourceLocation)
    }

    @Test func buildAppXcargs() async throws {
        let (project, environment, record) = xcodeProject()
        let result = try await lanes.run(["run", "build_app", "workspace:Brewer.xcworkspace", "scheme:Brewer", "export_method:ad-hoc",
                                    "xcargs:-allowProvisioningUpdates API_TOKEN=\(Self.secret)"], in: project, extraEnvironment: environment)
        expectRefused(result, step: "build_app", option: "xcargs", program: "xcodebuild")
        #expect(!FileManager.default.fileExists(atPath: record.path), "xcodebuild never started")
    }

    @Test func buildAppExportXcargs() async throws {
        let (project, environment, record) = xcodeProject()
        let result = try await lanes.run(["run", "build_app", "workspace:Brewer.xcworkspace", "scheme:Brewer", "export_method:ad-hoc",
                                    "export_xcargs:-authenticationKeyID \(Self.secret)"], in: project, extraEnvironment: environment)
        expectRefused(result, step: "build_app", option: "export_xcargs", program: "xcodebuild")
        let calls = (try? String(contentsOf: record, encoding: .utf8)) ?? ""
        #expect(!calls.contains(Self.secret), "\(calls)")
    }

    @Test func runTestsXcargs() async throws {
        let (project, environment, record) = xcodeProject()
        let result = try await lanes.run(["run", "run_tests", "workspace:Brewer.xcworkspace", "scheme:Brewer", "destination:platform=macOS",
                                    "xcargs:TOKEN=\(Self.secret)"], in: project, extraEnvironment: environment)
        expectRefused(result, step: "run_tests", option: "xcargs", program: "xcodebuild")
        #expect(!FileManager.default.fileExists(atPath: record.path))
    }

    /// The secret's base64 is as readable as the secret.
    @Test(arguments: ["system_properties", "flags"])
    func gradleSystemPropertiesAndFlags(option: String) async throws {
        let project = LanesCommandLine.temporaryDirectory("secret-argv-gradle")
        defer { try? FileManager.default.removeItem(at: project) }
        let wrapper = project.appendingPathComponent("gradlew").path
        try AtomicFile.write("#!/bin/sh\nprintf '%s\\n' \"$@\" > \"$(dirname \"$0\")/argv.txt\"\n", to: wrapper, permissions: 0o755)
        let encoded = Data(Self.secret.utf8).base64EncodedString()
        let value = option == "flags" ? "flags:--info -Pstore.password=\(encoded)" : "system_properties:signing.password=\(Self.secret)"
        let result = try await lanes.run(["run", "gradle", "task:assemble", value], in: project, extraEnvironment: ["DEPLOY_TOKEN": Self.secret])
        expectRefused(result, step: "gradle", option: option, program: "gradlew")
        #expect(!FileManager.default.fileExists(atPath: project.appendingPathComponent("argv.txt").path), "gradlew never started")
    }

    /// A Lanefile's own `sh` still gets the same refusal, now from the runner's check.
    @Test func shStillRefuses() async throws {
        let project = try LanesCommandLine.project("secrets")
        let result = try await lanes.run(["argv"], in: project, extraEnvironment: ["CANARY": Self.secret])
        #expect(result.status == 78, "\(result.output)")
        #expect(result.standardError.contains("sh: refusing to start"), "\(result.standardError)")
        #expect(!result.output.contains(Self.secret))
    }
}
