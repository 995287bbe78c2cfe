import LanesPlatform
import Foundation
import LanesTestSupport
import Testing
import LanesHTTP

/// Issue 21: the App Store Connect key build_app writes for xcodebuild's `-authenticationKeyPath`
/// is never readable by others while it exists, and a lane killed with SIGKILL while it exists
/// (no cleanup runs) does not leave it behind: the next run of the project removes it.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct AppStoreConnectKeyFileCrashTests {
    static func mode(_ path: String) -> Int {
        ((try? FileManager.default.attributesOfItem(atPath: path)[.posixPermissions] as? Int) ?? nil) ?? -1
    }

    @Test(.enabled(if: FileManager.default.fileExists(atPath: "/proc/self/stat")))
    func aKeyFileOfALaneKilledWithSIGKILLIsRemovedByTheNextRun() async throws {
        let folder = LanesCommandLine.temporaryDirectory("asc-key-crash")
        defer { try? FileManager.default.removeItem(at: folder) }
        let key = try await Program.streams(["openssl", "genpkey", "-algorithm", "EC", "-pkeyopt", "ec_paramgen_curve:P-256"])
        try #require(key.status == 0, "\(key.error)")
        let record = folder.appendingPathComponent("xcodebuild-calls.txt").path
        let lanePID = folder.appendingPathComponent("lane.pid").path
        let hangPID = folder.appendingPathComponent("hang.pid").path
        // xcodebuild's stand-in runs this and waits for it: it notes the lane's process (its
        // parent's parent) and its own, then sleeps while the test looks at the key and kills the lane.
        let hang = folder.appendingPathComponent("hang.sh").path
        try AtomicFile.write("""
            #!/bin/sh
            echo "$$ $PPID" > "\(hangPID).tmp" && mv "\(hangPID).tmp" "\(hangPID)"
            cut -d' ' -f4 /proc/$PPID/stat > "\(lanePID).tmp" && mv "\(lanePID).tmp" "\(lanePID)"
            exec sleep "$1"

            """, to: hang, permissions: 0o755)
        try """
            import Lanes

            let lanes = Lanefile {
                Lane("beta", "Build with the lane's key") {
                    try await appStoreConnectApiKey(keyID: "CRASH12345", issuerID: "69a6de70-0000-47e3-e053-5b8c7c11a4d1",
                                                    keyContent: try secret("ASC_KEY_BASE64"), isKeyContentBase64: true)
                    try await buildApp(workspace: "Brewer.xcworkspace", scheme: "Brewer", exportMethod: .adHoc, allowProvisioningUpdates: true)
                }
                Lane("other", "Anything else") {
                    try await sh("true")
                }
            }
            """.write(to: folder.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        let lanes = LanesCommandLine()
        let running = try lanes.start(["beta"], in: folder, extraEnvironment: [
            "ASC_KEY_BASE64": Data(key.output.utf8).base64EncodedString(),
            "PATH": LanesCommandLine.fixtures.appendingPathComponent("xcodebuild-standin").path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin"),
            "XCODEBUILD_RECORD": record,
            "XCODEBUILD_HANG": hang,
        ])
        // The stand-in and its sleep hold lanes' output pipes: they end with the lane's kill.
        func endStandIn() {
            let pids = ((try? String(contentsOfFile: hangPID, encoding: .utf8)) ?? "").split(separator: " ").compactMap { Int32($0.trimmingCharacters(in: .whitespacesAndNewlines)) }
            for pid in pids where pid > 1 { kill(pid, SIGKILL) }
        }
        defer {
            endStandIn()
            if running.isRunning { kill(running.pid, SIGKILL) }
        }
        // The first run compiles the Lanefile: wait for xcodebuild (bounded), not a fixed time.
        let started = Date()
        let deadline = started.addingTimeInterval(240)
        while !FileManager.default.fileExists(atPath: lanePID), running.isRunning, Date() < deadline {
            try? await Task.sleep(for: .milliseconds(50))  // polling a file the stand-in writes
        }
        if !FileManager.default.fileExists(atPath: lanePID) {
            let output = running.isRunning ? "" : await running.finish().output
            Issue.record("xcodebuild never ran: \(output)")
            return
        }
        print("AppStoreConnectKeyFileCrashTests: xcodebuild ran \(Int(Date().timeIntervalSince(started))) s after lanes started (the Lanefile's compile)")
        let lane = try #require(Int32(try String(contentsOfFile: lanePID, encoding: .utf8).trimmingCharacters(in: .whitespacesAndNewlines)))
        let arguments = try String(contentsOfFile: record, encoding: .utf8).split(separator: "\n").map(String.init)
        let keyPath = try #require(arguments.firstIndex(of: "-authenticationKeyPath").map { arguments[$0 + 1] }, "\(arguments)")
        let keyFolder = (keyPath as NSString).deletingLastPathComponent

        // While it exists: only its owner may read it, its folder, or the folder of key folders.
        #expect(FileManager.default.fileExists(atPath: keyPath))
        #expect(Self.mode(keyPath) == 0o600, "key file mode \(String(Self.mode(keyPath), radix: 8))")
        #expect(Self.mode(keyFolder) == 0o700, "key folder mode \(String(Self.mode(keyFolder), radix: 8))")
        #expect(Self.mode((keyFolder as NSString).deletingLastPathComponent) == 0o700)
        #expect(try String(contentsOfFile: keyPath, encoding: .utf8) == key.output)

        // SIGKILL: no cleanup of the lane runs, so the key stays until someone removes it.
        #expect(kill(lane, SIGKILL) == 0)
        endStandIn()
        let ended = await running.finish()
        #expect(ended.status != 0)
        #expect(FileManager.default.fileExists(atPath: keyPath), "the lane was not killed while the key existed")

        let next = try await lanes.run(["other"], in: folder)
        #expect(next.status == 0, "\(next.output)")
        #expect(!FileManager.default.fileExists(atPath: keyPath), "the next run left the killed lane's key")
        #expect(!FileManager.default.fileExists(atPath: keyFolder))
        #expect(next.output.contains("left behind by a lane that crashed or was killed"), "\(next.output)")
        #expect(!next.output.contains(key.output.split(separator: "\n")[1]), "key material printed")
    }
}
