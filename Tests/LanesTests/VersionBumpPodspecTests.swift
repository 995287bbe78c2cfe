import Foundation
import Lanes
import LanesBuild
import Synchronization
import Testing

/// `version_bump_podspec` reads and rewrites a podspec's version by fastlane's rules.
@Suite(.timeLimit(.minutes(3))) struct VersionBumpPodspecTests {
    /// A podspec as `pod lib create` lays one out: a commented header (one comment line names a
    /// version), the spec block, the version among other `s.` settings.
    static let podspec = """
        #
        # Be sure to run `pod lib lint Brewer.podspec' before submitting.
        # s.version = '9.9.9' is how a version is written.
        #

        Pod::Spec.new do |s|
          s.name             = 'Brewer'
          s.version          = '1.4.2'
          s.summary          = 'Brews.'
          s.source           = { :git => 'https://example.com/brewer.git', :tag => s.version.to_s }
          s.ios.deployment_target = '13.0'
          s.dependency 'Kettle', '~> 2.0'
        end
        """

    @Test(arguments: [(PodspecVersion.Bump.patch, "1.4.3"), (.minor, "1.5.0"), (.major, "2.0.0")])
    func bumpsThePodspecVersion(bump: PodspecVersion.Bump, expected: String) throws {
        let version = try PodspecVersion(text: Self.podspec)
        #expect(version.value == "1.4.2")
        let next = try version.bumped(bump)
        #expect(next == expected)
        let updated = version.updated(to: next)
        #expect(updated.contains("  s.version          = '\(expected)'\n"))
        // Only the version line changes; the comment naming a version and the deployment target stay.
        #expect(updated.replacingOccurrences(of: "'\(expected)'", with: "'1.4.2'") == Self.podspec + "\n")
        #expect(updated.contains("# s.version = '9.9.9'"))
    }

    @Test func readsWhatFastlaneReads() throws {
        // Missing parts count as 0; the appendix and pre-release go on a bump; the quote is kept.
        #expect(try PodspecVersion(text: "spec.version = \"2\"").bumped(.minor) == "2.1.0")
        #expect(try PodspecVersion(text: "s.version = '2.0.0-beta.1'\n").bumped(.patch) == "2.0.1")
        let long = try PodspecVersion(text: "s.version = \"1.4.14.4.1\"\n")
        #expect(long.value == "1.4.14.4.1")
        #expect(try long.withAppendix("5") == "1.4.14.5")
        #expect(try long.withAppendix(".5") == "1.4.14.5")
        #expect(long.updated(to: "1.4.14.5") == "s.version = \"1.4.14.5\"\n")
        // Case does not matter; a line that is a comment does not count.
        #expect(try PodspecVersion(text: "# s.version = '0.1'\nS.Version = '3.0'").value == "3.0")
        // `version = ...` without `s.` is read only without the prefix rule.
        #expect(throws: PodspecVersion.Failure.noVersion) { try PodspecVersion(text: "version = '1.0'\n") }
        #expect(try PodspecVersion(text: "version = '1.0'\n", requireVariablePrefix: false).bumped(.patch) == "1.0.1")
        #expect(throws: PodspecVersion.Failure.noVersion) { try PodspecVersion(text: "s.version = spec_version\n") }
        #expect(throws: PodspecVersion.Failure.numberTooLarge("99999999999999999999.0")) {
            try PodspecVersion(text: "s.version = '99999999999999999999.0'").bumped(.patch)
        }
    }

    final class Lines: Sendable {
        let lines = Mutex<[String]>([])
        var all: [String] { lines.withLock { $0 } }
    }

    struct NoProcesses: ProcessRunning {
        struct Unexpected: Error {}
        func run(_ request: ProcessRequest, onLine: @escaping @Sendable (String) -> Void) async throws -> ProcessOutcome {
            throw Unexpected()
        }
    }

    private func context(_ directory: URL, lines: Lines) -> StepContext {
        let redactor = Redactor()
        return StepContext(environment: Environment(variables: [:], redactor: redactor), projectDirectory: directory.path,
                           stateDirectory: directory.appendingPathComponent(".lanes").path,
                           log: StepLog(redactor: redactor) { line in lines.lines.withLock { $0.append(line) } },
                           cleanups: CleanupStack(), processes: NoProcesses())
    }

    @Test func theStepRewritesTheLastPodspecOfTheFolderAndReturnsTheVersion() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("podspec-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let brewer = directory.appendingPathComponent("Brewer.podspec")
        let kettle = directory.appendingPathComponent("Kettle.podspec")
        try Self.podspec.write(to: brewer, atomically: true, encoding: .utf8)
        try "Pod::Spec.new do |s|\n  s.version = '0.9'\nend\n".write(to: kettle, atomically: true, encoding: .utf8)
        let lines = Lines()

        // fastlane's default path is Dir["*.podspec"].last: Kettle.podspec, after Brewer.podspec.
        let minor = try await VersionBumpPodspec.resolve(StepArguments(text: ["bump_type": "minor"])).run(in: context(directory, lines: lines))
        #expect(minor == "0.10.0")
        #expect(try String(contentsOf: kettle, encoding: .utf8) == "Pod::Spec.new do |s|\n  s.version = '0.10.0'\nend\n")
        #expect(lines.all.contains { $0.hasSuffix("Kettle.podspec: version 0.9 -> 0.10.0") })

        // version_number wins over bump_type; the other podspec is untouched until named.
        let set = try await VersionBumpPodspec.resolve(StepArguments(text: ["path": "Brewer.podspec", "version_number": "2.0.0",
                                                                            "bump_type": "major"]))
            .run(in: context(directory, lines: lines))
        #expect(set == "2.0.0")
        #expect(try String(contentsOf: brewer, encoding: .utf8).contains("  s.version          = '2.0.0'\n"))

        // fastlane's bump types only: increment_version_number's `bump` is not one.
        #expect(throws: (any Error).self) { try VersionBumpPodspec.resolve(StepArguments(text: ["bump_type": "bump"])) }

        // A missing podspec names the path and the variable; nothing is written.
        await #expect(throws: LanesError.self) {
            try await VersionBumpPodspec.resolve(StepArguments(text: ["path": "Missing.podspec"])).run(in: context(directory, lines: lines))
        }
        do {
            _ = try await VersionBumpPodspec.resolve(StepArguments(text: ["path": "Missing.podspec"])).run(in: context(directory, lines: lines))
        } catch let error as LanesError {
            #expect(error.message.contains("could not find podspec file at path") && error.message.contains("Missing.podspec"))
            #expect(error.hint?.contains("FL_VERSION_BUMP_PODSPEC_PATH") == true)
        }
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent("Missing.podspec").path))
    }
}
