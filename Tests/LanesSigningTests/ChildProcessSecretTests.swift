import LanesPlatform
import LanesTestSupport
import Foundation
@testable import LanesRuntime
import LanesSigning
import Testing

/// No child process that lanes starts may carry a password in its argv (`/proc/PID/cmdline`).
@Suite("No secret in any child's arguments", .timeLimit(.minutes(10)), .tags(.live))
struct ChildProcessSecretTests {
    /// The macOS keychain path, executed for real: `ProcessToolRunner` starts each `security`
    /// command through the lane's real process runner, against a stand-in `security` script that
    /// records the kernel's view of its argv (/proc/self/cmdline) and what reached its stdin.
    @Test func securityChildrenGetPasswordsOnlyThroughStdin() async throws {
        let temp = try TemporaryDirectory()
        defer { temp.remove() }
        let bin = temp.path + "/bin", records = temp.path + "/records"
        try FileManager.default.createDirectory(atPath: bin, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(atPath: records, withIntermediateDirectories: true)
        let script = """
            #!/bin/sh
            record="$FAKE_SECURITY_RECORDS/$$"
            tr '\\000' '\\n' < /proc/$$/cmdline > "$record.cmdline"
            cat > "$record.stdin"
            case "$1" in
              list-keychains) [ $# -eq 3 ] && printf '    "/Users/ci/Library/Keychains/login.keychain-db"\\n' ;;
              find-identity) printf '  1) \(Fixture.distSHA1) "\(Fixture.distCommonName)"\\n     1 valid identities found\\n' ;;
            esac
            exit 0
            """
        try AtomicFile.write(script, to: bin + "/security", permissions: 0o755)

        let runner = ProcessToolRunner(processes: SubprocessRunner(baseEnvironment: [
            "PATH": "\(bin):/usr/bin:/bin", "FAKE_SECURITY_RECORDS": records,
        ]))
        let keychainPassword = Fixture.shellPassword
        let keychain = try MacKeychain(name: "lanes-ci", keychainsDirectory: temp.path + "/Keychains", password: keychainPassword,
                                       runner: runner, scratchDirectory: temp.path + "/scratch", ownershipDirectory: temp.path + "/owned",
                                       searchListLock: temp.path + "/search-list.lock")
        try await keychain.create()
        let identity = try PKCS12File.read(path: Fixture.p12("dist-unicode-pass"), password: Fixture.unicodePassword)
        let imported = try await keychain.importIdentity(identity)
        #expect(imported.sha1 == Fixture.distSHA1)
        try await keychain.delete()

        let files = try FileManager.default.contentsOfDirectory(atPath: records)
        let cmdlines = try files.filter { $0.hasSuffix(".cmdline") }.map { try String(contentsOfFile: "\(records)/\($0)", encoding: .utf8) }
        let stdins = try files.filter { $0.hasSuffix(".stdin") }.map { try String(contentsOfFile: "\(records)/\($0)", encoding: .utf8) }
        #expect(cmdlines.count == 10, "every security command ran as a real child")
        // The passwords did reach the tool...
        let importLine = try #require(stdins.first { $0.hasPrefix("\"import\"") })
        let oneTime = try #require(importLine.split(separator: "\"").first { $0.count == 48 && $0.allSatisfy(\.isHexDigit) })
        #expect(stdins.contains { $0.contains("\"unlock-keychain\" \"-p\" \"sp ace'quote\\\"dq$dollar\\\\back!bang\"") })
        // ...but never through any argv.
        for cmdline in cmdlines {
            #expect(!cmdline.contains("sp ace"), "keychain password in \(cmdline)")
            #expect(!cmdline.contains(oneTime), "one-time password in \(cmdline)")
            #expect(!cmdline.contains(Fixture.unicodePassword))
        }
    }

    /// The built `lanes` binary, given passwords through the environment: its own argv (and any
    /// child's) never holds them.
    @Test(arguments: [
        ["cert", "info", Fixture.p12("dist-shellchars-pass"), "--password-env", "LANES_TEST_P12", "--json"],
        ["cert", "check", Fixture.p12("dist-shellchars-pass"), "--password-env", "LANES_TEST_P12",
         "--profile", Fixture.profile("Brewer_Staging"), "--app-id", "works.sth.brewer.staging", "--trust", Fixture.trustRoot],
    ])
    func lanesBinaryKeepsPasswordsOutOfArgv(arguments: [String]) async throws {
        let (run, filler) = try LanesBinary.startHeld(arguments, environment: ["LANES_TEST_P12": Fixture.shellPassword])
        let pid = run.pid
        var observed: [String] = []
        let deadline = Date().addingTimeInterval(20)
        // lanes stays alive until its output is drained: watch its tree until it is seen blocked on output.
        while Date() < deadline {
            observed += ProcessTree.commandLines(below: pid)
            if ProcTable.isBlockedOnPipe(pid) { break }
            try await Task.sleep(for: .milliseconds(1))
        }
        observed += ProcessTree.commandLines(below: pid)
        let result = try await run.finish()
        #expect(result.status == 0, "\(result.output.dropFirst(filler))")
        // `lanes` execs `lanes-tool` for subcommands (same process, argv[0] "lanes"): look for the command itself.
        #expect(observed.contains { $0.hasPrefix("lanes") || $0.hasPrefix(LanesBinary.path) }
                    && observed.contains { $0.contains(" \(arguments[0]) \(arguments[1]) ") && $0.contains("LANES_TEST_P12") },
                "the lanes process was observed while it ran: \(Set(observed))")
        for cmdline in observed { #expect(!cmdline.contains("sp ace'quote")) }
        #expect(result.output.dropFirst(filler).contains("ABCDE12345"))
        #expect(!result.output.contains("sp ace'quote"))
    }
}

/// Reads `/proc` for whether a process is blocked writing to a pipe.
enum ProcTable {
    /// Whether `pid` sleeps in a pipe write (its output pipe is full).
    static func isBlockedOnPipe(_ pid: Int32) -> Bool {
        // Any thread: async code may write from a thread other than the main one.
        let threads = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(pid)/task")) ?? []
        return threads.contains { thread in
            (try? String(contentsOfFile: "/proc/\(pid)/task/\(thread)/wchan", encoding: .utf8))?.hasSuffix("pipe_write") == true
        }
    }
}
