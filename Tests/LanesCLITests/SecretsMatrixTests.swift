import LanesTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Issue 10, "Prove it": every output channel against every shape of secret, through the built
/// `lanes` and a Lanefile that prints each secret every way it can.
@Suite struct SecretsMatrixTests {
    /// The shapes, as the environment holds them.
    static let secrets: [String: String] = [
        "PLAIN_SECRET": "plain-Secret-4711",
        "NEWLINE_SECRET": "newline-Secret-4712\n",
        "CRLF_SECRET": "crlf-Secret-4713\r\n",
        "MULTILINE_SECRET": "-----BEGIN KEY-----\nmultiLineBody4714a\nmultiLineBody4714b\n-----END KEY-----\n",
        "COMBINING_SECRET": "combining-Secret-4715",
        "SHORT_SECRET": "q7Z",
        "META_SECRET": #"<&>"'x\{4716}"#,
        "AWS_SECRET_ACCESS_KEY": "undeclared-Aws-4717",
    ]

    /// What must never appear: each value, without trailing whitespace, and each line of it.
    static var forbidden: [String: [String]] {
        secrets.mapValues { value in
            var fragments = [value, value.trimmingCharacters(in: .whitespacesAndNewlines)]
            fragments += value.split(whereSeparator: \.isNewline).map(String.init).filter { $0.count >= 4 }
            return fragments
        }
    }

    /// - Parameter shortestFragment: files include compiled binaries, in which a 3-byte secret
    ///   occurs by chance; they are searched for fragments of 6 bytes or more.
    static func leaks(in text: String, channel: String, shortestFragment: Int = 1) -> [String] {
        forbidden.flatMap { name, fragments in
            fragments.filter { $0.utf8.count >= shortestFragment && text.utf8.contains($0.utf8) }.map { "\(name) (\($0.debugDescription)) in \(channel)" }
        }
    }

    static func leaks(inFilesUnder directory: URL, channel: String) -> [String] {
        guard let files = FileManager.default.enumerator(at: directory, includingPropertiesForKeys: nil) else { return [] }
        return files.compactMap { $0 as? URL }.flatMap { url -> [String] in
            guard let data = try? Data(contentsOf: url) else { return [] }
            let text = String(decoding: data, as: UTF8.self)
            return leaks(in: text, channel: "\(channel) \(url.lastPathComponent)", shortestFragment: 6)
        }
    }

    @Test func noChannelShowsAnyShapeOfSecret() throws {
        let lanes = LanesProcess()
        let project = try LanesProcess.project("hostile")
        let temporary = LanesProcess.temporaryDirectory("tmpdir")
        let junit = project.appendingPathComponent("reports/junit.xml")
        var leaks: [String] = []
        var environment = Self.secrets
        environment["TMPDIR"] = temporary.path
        environment["LANES_LOG_LEVEL"] = "debug"

        // Terminal mode, with JUnit and debug logs; /proc/*/cmdline read while children run.
        let running = try lanes.start(["matrix", "--junit", junit.path], in: project, extraEnvironment: environment)
        var commandLines = ""
        while running.process.isRunning {
            commandLines += Self.allCommandLines()
            Thread.sleep(forTimeInterval: 0.05)
        }
        let terminal = running.finish()
        #expect(terminal.status == 1, "\(terminal.output)")
        #expect(terminal.standardOutput.contains("echo PLAIN_SECRET=********"), "\(terminal.output)")
        #expect(terminal.standardOutput.contains("child ********"))
        #expect(terminal.standardError.contains("warning: secret SHORT_SECRET is shorter than 6 characters"))
        leaks += Self.leaks(in: terminal.standardOutput, channel: "stdout")
        leaks += Self.leaks(in: terminal.standardError, channel: "stderr (with debug logs)")
        leaks += Self.leaks(in: commandLines, channel: "/proc/PID/cmdline")

        let report = try String(contentsOf: junit, encoding: .utf8)
        leaks += Self.leaks(in: report, channel: "JUnit")
        _ = try XMLDocument(xmlString: report)  // still well-formed
        #expect(report.contains("<failure"))

        // --json: every line is an event, printed lines included.
        let json = try lanes.run(["matrix", "--json"], in: project, extraEnvironment: environment)
        leaks += Self.leaks(in: json.standardOutput, channel: "--json")
        leaks += Self.leaks(in: json.standardError, channel: "--json stderr")
        var events: [[String: Any]] = []
        for line in json.standardOutput.split(separator: "\n") {
            let event = try #require(try JSONSerialization.jsonObject(with: Data(line.utf8)) as? [String: Any], "not JSON: \(line)")
            events.append(event)
        }
        #expect(events.contains { $0["source"] as? String == "print" && ($0["line"] as? String)?.hasPrefix("print PLAIN_SECRET=") == true })
        #expect(events.first?["event"] as? String == "lane_started")
        #expect(events.last?["event"] as? String == "lane_finished")

        leaks += Self.leaks(inFilesUnder: lanes.cacheDirectory, channel: "cache")
        leaks += Self.leaks(inFilesUnder: project.appendingPathComponent(".lanes"), channel: ".lanes/")
        leaks += Self.leaks(inFilesUnder: temporary, channel: "TMPDIR")
        leaks += Self.leaks(inFilesUnder: project, channel: "project folder")
        #expect(leaks.isEmpty, "\(leaks.joined(separator: "\n"))")
    }

    @Test func aCrashReportsTheSignalLeavesNoCoreAndItsKeychainGoesAtTheNextRun() throws {
        let lanes = LanesProcess()
        let project = try LanesProcess.project("hostile")
        // Core dumps on, as a careless CI machine has them.
        let crash = try lanes.run(["-c", "ulimit -c unlimited 2>/dev/null; exec \"$0\" crash", try LanesProcess.executable],
                                  in: project, extraEnvironment: Self.secrets, executable: "/bin/sh")
        #expect(crash.status == 71, "\(crash.output)")
        #expect(crash.standardError.contains("error: lane crash crashed with SIG"), "\(crash.output)")
        #expect(crash.standardError.contains("Fatal error: crashed holding ********"), "the runtime's message is kept, redacted")
        #expect(crash.standardOutput.contains("about to crash"))
        #expect(Self.leaks(in: crash.output, channel: "crash output").isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: project.path)
        #expect(!files.contains { $0.hasPrefix("core") }, "\(files)")
        let keychain = project.appendingPathComponent(".lanes/keychains/crashing.keychain")
        #expect(FileManager.default.fileExists(atPath: keychain.path), "the crash left its keychain")

        let next = try lanes.run(["noop"], in: project, extraEnvironment: Self.secrets)
        #expect(next.status == 0, "\(next.output)")
        #expect(!FileManager.default.fileExists(atPath: keychain.path), "the next run removed it")
    }

    static func allCommandLines() -> String {
        let entries = (try? FileManager.default.contentsOfDirectory(atPath: "/proc")) ?? []
        return entries.filter { $0.allSatisfy(\.isNumber) }.compactMap { pid in
            (try? Data(contentsOf: URL(fileURLWithPath: "/proc/\(pid)/cmdline"))).map { String(decoding: $0, as: UTF8.self) }
        }.joined(separator: "\n")
    }
}
