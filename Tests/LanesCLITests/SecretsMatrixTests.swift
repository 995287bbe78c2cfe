import LanesPlatform
import LanesTestSupport
import Foundation
#if canImport(FoundationXML)
import FoundationXML
#endif
import Testing

/// Issue 10, "Prove it": every output channel against every shape of secret, through the built
/// `lanes` and a Lanefile that prints each secret every way it can.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct SecretsMatrixTests {
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

    @Test func noChannelShowsAnyShapeOfSecret() async throws {
        let lanes = LanesCommandLine()
        let project = try LanesCommandLine.project("hostile")
        let temporary = LanesCommandLine.temporaryDirectory("tmpdir")
        let junit = project.appendingPathComponent("reports/junit.xml")
        var leaks: [String] = []
        var environment = Self.secrets
        environment["TMPDIR"] = temporary.path
        environment["LANES_LOG_LEVEL"] = "debug"

        // Terminal mode, with JUnit and debug logs. Every child's argv is proven, not sampled: the
        // compiler, `sh` and `sleep` are stand-ins that record their own argv (so a child that lives
        // a millisecond is still seen), and the `sleep` stand-in holds the lane until this test has
        // read the command lines of lanes and its runner, which are then alive for certain.
        let held = try HeldChildren(lanes: lanes)
        let running = try lanes.start(["matrix", "--junit", junit.path], in: project, extraEnvironment: environment.merging(held.environment) { $1 })
        let whileHeld = await held.commandLinesWhileHeld(of: running)
        let terminal = await running.finish()
        let records = held.records()
        #expect(records.filter { $0.tool == "sh" }.count >= Self.secrets.count, "every sh child recorded itself: \(records.map(\.tool))")
        #expect(records.contains { $0.tool == "sleep" } && records.contains { $0.tool == "swiftc" }, "\(records.map(\.tool))")
        #expect(whileHeld.isEmpty == !HeldChildren.hasProc, "lanes and its runner were read while held")
        for record in records { leaks += Self.leaks(in: record.arguments.joined(separator: " "), channel: "argv of \(record.tool)") }
        for line in whileHeld { leaks += Self.leaks(in: line, channel: "/proc/PID/cmdline of a held process") }
        held.remove()
        #expect(terminal.status == 1, "\(terminal.output)")
        #expect(terminal.standardOutput.contains("echo PLAIN_SECRET=********"), "\(terminal.output)")
        #expect(terminal.standardOutput.contains("child ********"))
        #expect(terminal.standardError.contains("warning: secret SHORT_SECRET is shorter than 6 characters"))
        leaks += Self.leaks(in: terminal.standardOutput, channel: "stdout")
        leaks += Self.leaks(in: terminal.standardError, channel: "stderr (with debug logs)")

        let report = try String(contentsOf: junit, encoding: .utf8)
        leaks += Self.leaks(in: report, channel: "JUnit")
        _ = try XMLDocument(xmlString: report)  // still well-formed
        #expect(report.contains("<failure"))

        // --json: every line is an event, printed lines included.
        let json = try await lanes.run(["matrix", "--json"], in: project, extraEnvironment: environment)
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

    @Test func aCrashReportsTheSignalLeavesNoCoreAndItsKeychainGoesAtTheNextRun() async throws {
        let lanes = LanesCommandLine()
        let project = try LanesCommandLine.project("hostile")
        // Core dumps on, as a careless CI machine has them.
        let crash = try await lanes.run(["-c", "ulimit -c unlimited 2>/dev/null; exec \"$0\" crash", try LanesCommandLine.executable],
                                  in: project, extraEnvironment: Self.secrets, executable: "/bin/sh")
        #expect(crash.status == 71, "\(crash.output)")
        #expect(crash.standardError.contains("error: lane crash crashed with SIG"), "\(crash.output)")
        #expect(crash.standardError.contains("Fatal error: crashed holding ********"), "the runtime's message is kept, redacted")
        // Compiled without debug info (LanefileCompiler.flags): the message still names the Lanefile's line.
        #expect(crash.standardError.contains("Lanefile.swift:32: Fatal error"), "\(crash.output)")
        #expect(crash.standardOutput.contains("about to crash"))
        #expect(Self.leaks(in: crash.output, channel: "crash output").isEmpty)
        let files = try FileManager.default.contentsOfDirectory(atPath: project.path)
        #expect(!files.contains { $0.hasPrefix("core") }, "\(files)")
        let keychain = project.appendingPathComponent(".lanes/keychains/crashing.keychain")
        #expect(FileManager.default.fileExists(atPath: keychain.path), "the crash left its keychain")

        let next = try await lanes.run(["noop"], in: project, extraEnvironment: Self.secrets)
        #expect(next.status == 0, "\(next.output)")
        #expect(!FileManager.default.fileExists(atPath: keychain.path), "the next run removed it")
    }
}

/// The held-child technique for argv leak checks: stand-ins for `sh`, `sleep` and the compiler,
/// first on PATH (and `LANES_SWIFTC`), write their own argv to a file before running the real
/// tool, so no child can come and go unseen; the `sleep` stand-in then waits for this test's
/// release, which holds lanes and its runner alive while their command lines are read.
struct HeldChildren {
    struct Record { let tool: String; let arguments: [String] }

    static let hasProc = FileManager.default.fileExists(atPath: "/proc/self/cmdline")
    let folder: URL
    var recordFolder: URL { folder.appendingPathComponent("records") }
    var standIns: URL { folder.appendingPathComponent("bin") }
    let environment: [String: String]

    init(lanes: LanesCommandLine) throws {
        folder = LanesCommandLine.temporaryDirectory("held")
        let records = folder.appendingPathComponent("records"), standIns = folder.appendingPathComponent("bin")
        try FileManager.default.createDirectory(at: records, withIntermediateDirectories: true)
        try FileManager.default.createDirectory(at: standIns, withIntermediateDirectories: true)
        let path = lanes.environment["PATH"] ?? "/usr/bin:/bin"
        let swiftc = try #require(path.split(separator: ":").map { "\($0)/swiftc" }.first { FileManager.default.isExecutableFile(atPath: $0) },
                                  "swiftc is not on PATH")
        // `printf '%s\0'`: one NUL-terminated argument each, as the kernel holds them.
        let record = #"printf '%s\0' "$@" > "$LANES_HELD_RECORDS/$(basename "$0").$$.argv""#
        let scripts = [
            "sh": "\(record)\nexec /bin/sh \"$@\"",
            "swiftc": "\(record)\nexec '\(swiftc)' \"$@\"",
            "sleep": "\(record)\n: > \"$LANES_HELD_RECORDS/held\"\ni=0\nwhile [ ! -e \"$LANES_HELD_RECORDS/release\" ] && [ $i -lt 1200 ]; do /bin/sleep 0.05; i=$((i+1)); done",
        ]
        for (name, body) in scripts {
            let file = standIns.appendingPathComponent(name)
            try AtomicFile.write("#!/bin/sh\n\(body)\n", to: file.path, permissions: 0o755)
        }
        environment = ["PATH": "\(standIns.path):\(path)", "LANES_SWIFTC": standIns.appendingPathComponent("swiftc").path,
                       "LANES_HELD_RECORDS": records.path]
    }

    /// Waits (up to 5 minutes: the first run compiles) for the `sleep` stand-in to hold, reads the
    /// command lines of every process below `process`, and releases the hold.
    func commandLinesWhileHeld(of program: RunningProgram) async -> [String] {
        let heldFile = recordFolder.appendingPathComponent("held").path
        _ = await eventually(within: .seconds(300)) { !program.isRunning || FileManager.default.fileExists(atPath: heldFile) }
        defer { FileManager.default.createFile(atPath: recordFolder.appendingPathComponent("release").path, contents: nil) }
        guard Self.hasProc, FileManager.default.fileExists(atPath: heldFile) else { return [] }
        return ProcessTree.commandLines(below: program.pid)
    }

    func records() -> [Record] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: recordFolder.path)) ?? []
        return names.filter { $0.hasSuffix(".argv") }.compactMap { name in
            guard let data = FileManager.default.contents(atPath: recordFolder.appendingPathComponent(name).path) else { return nil }
            let arguments = data.split(separator: 0, omittingEmptySubsequences: false).dropLast().map { String(decoding: $0, as: UTF8.self) }
            return Record(tool: String(name.prefix { $0 != "." }), arguments: arguments)
        }
    }

    func remove() { try? FileManager.default.removeItem(at: folder) }
}
