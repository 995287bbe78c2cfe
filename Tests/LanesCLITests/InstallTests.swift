import LanesTestSupport
import Foundation
import Testing

/// `make install` gives a `lanes` that works from any folder, without the build tree on PATH.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct InstallTests {
    /// `make install-files` of the debug build into `prefix`.
    static func install(into prefix: URL) async throws {
        let make = try await Program.run(["make", "--no-print-directory", "-C", LanesCommandLine.repositoryRoot.path, "install-files",
                                          "BIN=\(LanesCommandLine.repositoryRoot.path)/.build/debug", "PREFIX=\(prefix.path)"])
        try #require(make.status == 0, "\(make.output)")
    }

    @Test func installedLanesInitsListsAndRunsALane() async throws {
        let prefix = LanesCommandLine.temporaryDirectory("prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        try await Self.install(into: prefix)

        let installed = prefix.appendingPathComponent("bin/lanes").path
        var lanes = LanesCommandLine()
        lanes.environment["PATH"] = "/usr/bin:/bin:" + URL(fileURLWithPath: try #require(swiftcPath())).deletingLastPathComponent().path
        let project = LanesCommandLine.temporaryDirectory("installed-project")
        defer { try? FileManager.default.removeItem(at: project) }
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

    /// Issue 32: the install records the compiler (path, then version) and ships each Lanefile module's
    /// `.swiftinterface`; with the compiled modules gone, as for a compiler that cannot load them (a new
    /// Xcode), a Lanefile still compiles, from the interfaces.
    @Test func aLanefileCompilesFromTheInstalledInterfacesAlone() async throws {
        let prefix = LanesCommandLine.temporaryDirectory("interface-prefix")
        defer { try? FileManager.default.removeItem(at: prefix) }
        try await Self.install(into: prefix)
        let home = prefix.appendingPathComponent("lib/lanes")
        let recorded = try String(contentsOf: home.appendingPathComponent("swiftc"), encoding: .utf8).split(separator: "\n").map(String.init)
        #expect(recorded.count == 2 && recorded[0].hasPrefix("/") && recorded[1].contains("Swift version"), "\(recorded)")
        let modules = home.appendingPathComponent("Modules")
        for name in try FileManager.default.contentsOfDirectory(atPath: modules.path) where name.hasSuffix(".swiftmodule") {
            #expect(FileManager.default.fileExists(atPath: modules.appendingPathComponent(name.replacingOccurrences(of: ".swiftmodule", with: ".swiftinterface")).path),
                    "\(name) has its interface")
            try FileManager.default.removeItem(at: modules.appendingPathComponent(name))
        }

        let project = LanesCommandLine.temporaryDirectory("interface-project")
        defer { try? FileManager.default.removeItem(at: project) }
        try """
            import Lanes

            let lanes = Lanefile {
                Lane("hello", "Says hello through a step") { try await sh("echo", "hello from the interfaces") }
            }

            """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        var lanes = LanesCommandLine()
        lanes.environment["PATH"] = "/usr/bin:/bin:" + URL(fileURLWithPath: try #require(swiftcPath())).deletingLastPathComponent().path
        lanes.environment["XDG_CACHE_HOME"] = project.appendingPathComponent(".cache").path
        let ran = try await lanes.run(["hello"], in: project, executable: prefix.appendingPathComponent("bin/lanes").path)
        #expect(ran.status == 0, "\(ran.output)")
        #expect(ran.standardOutput.contains("hello from the interfaces"))
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
