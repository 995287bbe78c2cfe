import LanesPlatform
import Foundation
import LanesTestSupport
import Testing

/// `lanes run gradle` against a stand-in gradlew that records its arguments and environment and
/// writes an APK, as a real assemble task does.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct GradleStepTests {
    let lanes = LanesCommandLine()

    @Test func gradleRunsTheWrapperWithTheComposedTaskKeepsTheSecretOutOfArgvAndReturnsTheAPK() async throws {
        let project = LanesCommandLine.temporaryDirectory("gradle")
        defer { try? FileManager.default.removeItem(at: project) }
        let wrapper = project.appendingPathComponent("gradlew").path
        try AtomicFile.write("""
            #!/bin/sh
            printf '%s\\n' "$@" > "$(dirname "$0")/argv.txt"
            printf '%s' "$ORG_GRADLE_PROJECT_storePassword" > "$(dirname "$0")/secret.txt"
            mkdir -p "$(dirname "$0")/app/build/outputs/apk/prod/release"
            echo apk > "$(dirname "$0")/app/build/outputs/apk/prod/release/app-prod-release.apk"
            echo "BUILD SUCCESSFUL"
            """, to: wrapper, permissions: 0o755)
        let secret = "gradle-store-\(UInt32.random(in: 100_000...999_999))"
        let result = try await lanes.run(["run", "gradle", "task:assemble", "flavor:Prod", "build_type:Release",
                                    "properties:versionCode=12,storePassword=\(secret)", "system_properties:ci=true"],
                                   in: project)
        #expect(result.status == 0, "\(result.output)")
        let argv = try String(contentsOfFile: project.appendingPathComponent("argv.txt").path, encoding: .utf8)
            .split(separator: "\n").map(String.init)
        let root = project.resolvingSymlinksInPath().path
        #expect(argv.last == "assembleProdRelease")
        #expect(argv.contains("-PversionCode=12") && argv.contains("-Dci=true"), "\(argv)")
        #expect(!argv.joined(separator: " ").contains(secret))
        #expect(try String(contentsOfFile: project.appendingPathComponent("secret.txt").path, encoding: .utf8) == secret)
        #expect(!result.output.contains(secret))
        #expect(result.output.contains("apk: ") && result.output.contains("app/build/outputs/apk/prod/release/app-prod-release.apk"),
                "\(result.output) (project \(root))")
    }

    @Test func aMissingWrapperFailsNamingItsPath() async throws {
        let project = LanesCommandLine.temporaryDirectory("gradle-missing")
        defer { try? FileManager.default.removeItem(at: project) }
        let result = try await lanes.run(["run", "gradle", "task:assemble"], in: project)
        #expect(result.status != 0)
        #expect(result.standardError.contains("no Gradle program at") && result.standardError.contains("gradlew"), "\(result.output)")
    }
}
