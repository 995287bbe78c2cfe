import Foundation
import Testing

/// `make install` gives a `lanes` that works from any folder, without the build tree on PATH.
@Suite struct InstallTests {
    @Test func installedLanesInitsListsAndRunsALane() throws {
        let prefix = LanesProcess.temporaryDirectory("prefix")
        let make = Process()
        make.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        make.arguments = ["make", "--no-print-directory", "-C", LanesProcess.repositoryRoot.path, "install-files",
                          "BIN=\(LanesProcess.repositoryRoot.path)/.build/debug", "PREFIX=\(prefix.path)"]
        let log = Pipe()
        make.standardOutput = log
        make.standardError = log
        try make.run()
        let makeOutput = String(decoding: log.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        make.waitUntilExit()
        try #require(make.terminationStatus == 0, "\(makeOutput)")

        let installed = prefix.appendingPathComponent("bin/lanes").path
        var lanes = LanesProcess()
        lanes.environment["PATH"] = "/usr/bin:/bin:" + URL(fileURLWithPath: try #require(swiftcPath())).deletingLastPathComponent().path
        let project = LanesProcess.temporaryDirectory("installed-project")
        let initialized = try lanes.run(["init", "--name", "Brewer"], in: project, executable: installed)
        #expect(initialized.status == 0, "\(initialized.output)")
        let listed = try lanes.run(["list", "--json"], in: project, executable: installed)
        #expect(listed.status == 0, "\(listed.output)")
        #expect(listed.standardOutput.contains(#""name":"developerRelease""#))
        let ran = try lanes.run(["developerRelease"], in: project, extraEnvironment: [
            "KEYCHAIN_NAME": "ci", "KEYCHAIN_PASSWORD": "kc-password", "CERTIFICATE_PASSWORD": "cert-password",
        ], executable: installed)
        #expect(ran.status == 0, "\(ran.output)")
        #expect(ran.standardOutput.contains("Brewer_Staging.mobileprovision"))
    }

    private func swiftcPath() -> String? {
        for directory in (ProcessInfo.processInfo.environment["PATH"] ?? "").split(separator: ":") {
            let candidate = "\(directory)/swiftc"
            if FileManager.default.isExecutableFile(atPath: candidate) { return candidate }
        }
        return nil
    }
}
