import Foundation
import LanesDoctor
@testable import LanesDriver
import LanesPlatform
import LanesTestSupport
import Testing

/// Issue 32: the compiler and SDK recorded at install decide a Lanefile's compile, so they are in its
/// cache key, and `lanes doctor` says when they changed behind lanes' back. (On a Mac, Xcode's
/// `/usr/bin/swiftc` is a shim: an Xcode update changed the compiler without changing that file.)
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct CompilerRecordTests {
    /// An installation folder of the installed shape whose module files are placeholders: enough for
    /// the cache key and the doctor, which never load them.
    struct FakeInstallation {
        let root: URL
        var home: String { root.appendingPathComponent("lib/lanes").path }
        var sdk: String { root.appendingPathComponent("MacOSX.sdk").path }

        init(compilerVersion: String?, sdk: Bool) throws {
            root = LanesCommandLine.temporaryDirectory("installation")
            let files = FileManager.default
            try files.createDirectory(atPath: root.appendingPathComponent("lib/lanes/Modules").path, withIntermediateDirectories: true)
            for name in ["Modules/Lanes.swiftmodule", "Modules/Lanes.swiftinterface", "Modules/LanesRuntime.swiftinterface", Installation.libraryFileName] {
                try "placeholder".write(toFile: root.appendingPathComponent("lib/lanes/" + name).path, atomically: true, encoding: .utf8)
            }
            let swiftc = try #require(FilePath.which("swiftc", path: ProcessInfo.processInfo.environment["PATH"]))
            try ([swiftc] + (compilerVersion.map { [$0] } ?? [])).joined(separator: "\n").appending("\n")
                .write(toFile: home + "/swiftc", atomically: true, encoding: .utf8)
            if sdk {
                try files.createDirectory(atPath: self.sdk, withIntermediateDirectories: true)
                try #"{"Version":"15.4"}"#.write(toFile: self.sdk + "/SDKSettings.json", atomically: true, encoding: .utf8)
                try self.sdk.write(toFile: home + "/sdk", atomically: true, encoding: .utf8)
            }
        }

        var environment: [String: String] {
            ["LANES_HOME": home, "PATH": ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"]
        }

        func runnerPath(lanefile: String) throws -> (path: String, flags: [String]) {
            let installation = try Installation.locate(environment: environment)
            let compiler = LanefileCompiler(installation: installation, cacheDirectory: root.appendingPathComponent("cache").path,
                                            environment: environment)
            return (try compiler.runnerPath(for: lanefile), compiler.flags)
        }
    }

    static func lanefile() throws -> String {
        let project = LanesCommandLine.temporaryDirectory("record-project")
        let path = project.appendingPathComponent("Lanefile.swift").path
        try "import Lanes\nlet lanes = Lanefile { }\n".write(toFile: path, atomically: true, encoding: .utf8)
        return path
    }

    @Test func theRecordedSDKIsInTheFlagsAndTheCacheKey() throws {
        let installation = try FakeInstallation(compilerVersion: "Swift version 6.3.1 (swift-6.3.1-RELEASE)", sdk: true)
        let lanefile = try Self.lanefile()
        let first = try installation.runnerPath(lanefile: lanefile)
        #expect(first.flags.suffix(2) == ["-sdk", installation.sdk])
        #expect(try installation.runnerPath(lanefile: lanefile).path == first.path, "nothing changed, same key")
        // An Xcode update rewrites the SDK's settings.
        try #"{"Version":"15.5","DisplayName":"macOS 15.5"}"#.write(toFile: installation.sdk + "/SDKSettings.json", atomically: true, encoding: .utf8)
        let updated = try installation.runnerPath(lanefile: lanefile)
        #expect(updated.path != first.path)
        // A textual module interface that changed is a change too.
        try "changed placeholder".write(toFile: installation.home + "/Modules/LanesRuntime.swiftinterface", atomically: true, encoding: .utf8)
        #expect(try installation.runnerPath(lanefile: lanefile).path != updated.path)

        let withoutSDK = try FakeInstallation(compilerVersion: nil, sdk: false)
        #expect(!(try withoutSDK.runnerPath(lanefile: lanefile).flags.contains("-sdk")))
    }

    @Test func theInstallationReadsTheRecordedVersionUnlessLANES_SWIFTCOverridesIt() throws {
        let installation = try FakeInstallation(compilerVersion: "Swift version 6.3.1 (swift-6.3.1-RELEASE)", sdk: true)
        let located = try Installation.locate(environment: installation.environment)
        #expect(located.compilerVersion == "Swift version 6.3.1 (swift-6.3.1-RELEASE)")
        #expect(located.sdk == installation.sdk)
        var overridden = installation.environment
        overridden["LANES_SWIFTC"] = "/opt/other/swiftc"
        let other = try Installation.locate(environment: overridden)
        #expect(other.swiftc == "/opt/other/swiftc" && other.compilerVersion == nil)
    }

    /// The compiler at the recorded path is not the one lanes was installed with: on Linux an error (no
    /// stable ABI). A recorded SDK that is gone is an error everywhere.
    @Test func theDoctorSeesACompilerOrSDKThatChangedSinceInstall() throws {
        let installation = try FakeInstallation(compilerVersion: "Swift version 5.10 (swift-5.10-RELEASE)", sdk: true)
        try FileManager.default.removeItem(atPath: installation.sdk)
        let findings = ToolchainCheckup(environment: installation.environment, projectDirectory: installation.root.path).findings()
        let compiler = try #require(findings.first { $0.subject == "swiftc" })
        #expect(compiler.severity == (HostPlatform.isMacOS ? .warning : .error), "\(compiler)")
        #expect(compiler.message.contains("lanes was installed with 'Swift version 5.10 (swift-5.10-RELEASE)'"), "\(compiler.message)")
        let sdk = try #require(findings.first { $0.subject == "macOS SDK" })
        #expect(sdk.severity == .error && sdk.message.contains(installation.sdk), "\(sdk)")

        let swiftc = try #require(FilePath.which("swiftc", path: installation.environment["PATH"]))
        let current = try #require(ToolOutput.compilerVersion(of: swiftc))
        let same = try FakeInstallation(compilerVersion: current, sdk: false)
        let ok = ToolchainCheckup(environment: same.environment, projectDirectory: same.root.path).findings().first { $0.subject == "swiftc" }
        #expect(ok?.severity == .ok, "\(String(describing: ok))")
        #expect(ok?.message.contains(current) == true)
    }
}
