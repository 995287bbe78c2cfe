import LanesTestSupport
import Foundation
import Testing

/// `make install` gives a `lanes` that works from any folder, without the build tree on PATH.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct InstallTests {
    @Test func installedLanesInitsListsAndRunsALane() async throws {
        let prefix = LanesCommandLine.temporaryDirectory("prefix")
        let make = try await Program.run(["make", "--no-print-directory", "-C", LanesCommandLine.repositoryRoot.path, "install-files",
                                          "BIN=\(LanesCommandLine.repositoryRoot.path)/.build/debug", "PREFIX=\(prefix.path)"])
        try #require(make.status == 0, "\(make.output)")

        let installed = prefix.appendingPathComponent("bin/lanes").path
        var lanes = LanesCommandLine()
        lanes.environment["PATH"] = "/usr/bin:/bin:" + URL(fileURLWithPath: try #require(swiftcPath())).deletingLastPathComponent().path
        let project = LanesCommandLine.temporaryDirectory("installed-project")
        let initialized = try await lanes.run(["init", "--name", "Brewer", "--app-id", "works.sth.brewer"], in: project, executable: installed)
        #expect(initialized.status == 0, "\(initialized.output)")
        let listed = try await lanes.run(["list", "--json"], in: project, executable: installed)
        #expect(listed.status == 0, "\(listed.output)")
        #expect(listed.standardOutput.contains(#""name":"developerRelease""#))

        // Give the generated Lanefile what it expects: the Brewer project, its signing files, a git history.
        let example = LanesCommandLine.repositoryRoot.appendingPathComponent("Example")
        let files = FileManager.default
        try files.copyItem(at: example.appendingPathComponent("Brewer.xcodeproj"), to: project.appendingPathComponent("Brewer.xcodeproj"))
        try files.createDirectory(at: project.appendingPathComponent("codesigning"), withIntermediateDirectories: true)
        for name in ["ios_distribution.p12", "Brewer_Staging.mobileprovision"] {
            try files.copyItem(at: example.appendingPathComponent("codesigning/\(name)"),
                               to: project.appendingPathComponent("codesigning/\(name)"))
        }
        try await git(["init", "-q"], in: project)
        try await git(["add", "."], in: project)
        try await git(["-c", "user.name=CI", "-c", "user.email=ci@example.com", "commit", "-q", "-m", "Initial"], in: project)

        let ran = try await lanes.run(["developerRelease"], in: project, extraEnvironment: [
            "KEYCHAIN_NAME": "ci", "KEYCHAIN_PASSWORD": "kc-password", "CERTIFICATE_PASSWORD": "brewer-3des-pass",
        ], executable: installed)
        #expect(ran.status == 0, "\(ran.output)")
        #expect(ran.standardOutput.contains("changed Brewer [Staging] PROVISIONING_PROFILE_SPECIFIER: (unset) -> 'Brewer_Staging'"))
        #expect(ran.standardOutput.contains("CURRENT_PROJECT_VERSION: (unset) -> '1'"))
        #expect(!ran.output.contains("brewer-3des-pass"))
        let keychains = project.appendingPathComponent(".lanes/keychains").path
        #expect(try files.contentsOfDirectory(atPath: keychains).isEmpty, "the lane's keychain is gone")
    }

    private func git(_ arguments: [String], in directory: URL) async throws {
        let result = try await Program.run(["/usr/bin/git"] + arguments, in: directory.path)
        try #require(result.status == 0, "git \(arguments.joined(separator: " ")) failed: \(result.output)")
    }

    private func swiftcPath() -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
