import Foundation
import Testing
@testable import LanesRuntime

/// `pod_push` builds the command fastlane's action builds.
@Suite(.timeLimit(.minutes(3))) struct PodPushTests {
    @Test func theCommandIsFastlanes() throws {
        // MapGL-iOS's rlz: pod_push(allow_warnings: true, use_bundle_exec: true), with a Gemfile.
        let mapGL = try PodPush.resolve(StepArguments(text: ["allow_warnings": "true", "use_bundle_exec": "true"]))
        #expect(PodPush.arguments(mapGL, bundleExec: true) == ["bundle", "exec", "pod", "trunk", "push", "--allow-warnings"])
        let everything = try PodPush.resolve(StepArguments(text: [
            "path": "Brewer.podspec", "repo": "specs", "sources": "https://cdn.cocoapods.org/,private", "swift_version": "5.9",
            "use_libraries": "true", "skip_import_validation": "true", "skip_tests": "true", "use_json": "true", "verbose": "true",
            "use_modular_headers": "true", "synchronous": "true", "no_overwrite": "true", "local_only": "true"]))
        #expect(PodPush.arguments(everything, bundleExec: false) == [
            "pod", "repo", "push", "specs", "Brewer.podspec", "--sources=https://cdn.cocoapods.org/,private", "--swift-version=5.9",
            "--use-libraries", "--skip-import-validation", "--skip-tests", "--use-json", "--verbose", "--use-modular-headers",
            "--synchronous", "--no-overwrite", "--local-only"])
    }
}
