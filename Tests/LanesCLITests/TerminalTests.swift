import LanesTestSupport
import Foundation
import Testing

/// The human output on a real pseudo-terminal (util-linux `script`), as a user at a shell sees it:
/// colours unless NO_COLOR or TERM=dumb, and the live elapsed line under a step that runs over 5 s.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct TerminalTests {
    static let script = "/usr/bin/script"

    /// Runs `lanes WORDS` under a pseudo-terminal; returns everything the terminal received.
    func onTerminal(_ words: [String], project: URL, environment: [String: String]) async throws -> String {
        var lanes = LanesCommandLine()
        lanes.environment["NO_COLOR"] = nil
        lanes.environment["TERM"] = "xterm-256color"
        let command = ([try LanesCommandLine.executable] + words).joined(separator: " ")
        let result = try await lanes.run(["-qec", command, "/dev/null"], in: project, extraEnvironment: environment, executable: Self.script)
        #expect(result.status == 0, "\(result.output)")
        return result.standardOutput
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: script), "util-linux script is not installed"))
    func coloursOnATerminalUnlessNoColorOrDumb() async throws {
        let project = try LanesCommandLine.project("slow")
        let coloured = try await onTerminal(["quick"], project: project, environment: [:])
        #expect(coloured.contains("\u{1B}[1m["))
        #expect(coloured.contains("\u{1B}[32mlane quick succeeded"))
        for environment in [["NO_COLOR": "1"], ["TERM": "dumb"]] {
            let plain = try await onTerminal(["quick"], project: project, environment: environment)
            #expect(plain.contains("lane quick succeeded"))
            #expect(!plain.contains("\u{1B}["), "escape codes with \(environment)")
        }
    }

    @Test(.enabled(if: FileManager.default.isExecutableFile(atPath: script), "util-linux script is not installed"))
    func aLongStepShowsItsElapsedTimeOnATerminalOnly() async throws {
        let project = try LanesCommandLine.project("slow")
        let terminal = try await onTerminal(["slow"], project: project, environment: [:])
        // The line appears once the step passes 5 s (on a loaded machine the first tick may be 0:06).
        #expect(terminal.contains(/\r\x{1B}\[K    1\. sh: running for 0:0[5-9]/))
        // Erased before the step's next line.
        #expect(terminal.contains(/running for 0:0\d\r\x{1B}\[Kdone/))
        let piped = try await LanesCommandLine().run(["slow"], in: project)
        #expect(piped.status == 0)
        #expect(!piped.output.contains("running for"))
    }
}
