import Foundation
import LanesTestSupport
import Testing

/// Issue 32: a runner holding secrets refuses debuggers, but one started under a debugger or tracer
/// goes on (on a Mac, `PT_DENY_ATTACH` in a traced process ended it at once with status 45 and no
/// message), and says once that the tracer can read its secrets. strace stands in for the debugger.
@Suite(.timeLimit(.minutes(10)), .tags(.live)) struct TracedRunTests {
    static let strace = ["/usr/bin/strace", "/bin/strace"].first { FileManager.default.isExecutableFile(atPath: $0) }

    static func project() throws -> URL {
        let project = LanesCommandLine.temporaryDirectory("traced")
        try """
            import Lanes

            let lanes = Lanefile {
                Lane("holdsSecrets", "Holds two secrets", secrets: ["TRACED_TOKEN", "TRACED_KEY"]) {
                    let token = try secret("TRACED_TOKEN")
                    print("token of \\(token.value.count) characters")
                }
            }

            """.write(to: project.appendingPathComponent("Lanefile.swift"), atomically: true, encoding: .utf8)
        return project
    }

    static let secrets = ["TRACED_TOKEN": "traced-canary-7731", "TRACED_KEY": "traced-key-5520"]

    @Test(.enabled(if: strace != nil, "needs strace"))
    func aTracedRunGoesOnAndSaysSoOnce() async throws {
        let project = try Self.project()
        let lanes = LanesCommandLine()
        // Compiled untraced first: the compiler under strace -f would only be slow.
        let listed = try await lanes.run(["list"], in: project)
        try #require(listed.status == 0, "\(listed.output)")
        let traced = try await lanes.run(["-f", "-qq", "-o", "/dev/null", try LanesCommandLine.executable, "holdsSecrets"], in: project,
                                   extraEnvironment: Self.secrets, executable: try #require(Self.strace))
        #expect(traced.status == 0, "\(traced.output)")
        #expect(traced.standardOutput.contains("token of 18 characters"))
        #expect(traced.standardError.components(separatedBy: "a debugger or tracer is attached to this run").count == 2,
                "said exactly once: \(traced.standardError)")
        #expect(!traced.output.contains("traced-canary-7731") && !traced.output.contains("traced-key-5520"))
    }

    @Test func anUntracedRunSaysNothingOfTracers() async throws {
        let project = try Self.project()
        let ran = try await LanesCommandLine().run(["holdsSecrets"], in: project, extraEnvironment: Self.secrets)
        #expect(ran.status == 0, "\(ran.output)")
        #expect(!ran.standardError.contains("tracer"), "\(ran.standardError)")
    }
}
