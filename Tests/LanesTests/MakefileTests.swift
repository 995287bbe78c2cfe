import Foundation
import LanesTestSupport
import Testing

/// `make demo` and `make install` install what lanes needs to build and run, nothing the tests use
/// (issue 19): read from what `make -n` would run, on this OS.
@Suite(.timeLimit(.minutes(3))) struct MakefileTests {
    static let testTools = ["chromium", "groovy", "zsh", "fish", "selenium", "croniter", "awscli", "pip", "venv", "python",
                            "ceph", "nginx", "systemd", "check-jsonschema", "kubernetes-validate"]

    static func dryRun(_ target: String) async throws -> String {
        // SWIFT=echo: `make -n` still runs the recursive `$(MAKE)` line, whose `swift build
        // --show-bin-path` would wait for the lock this test run holds on .build.
        let result = try await Program.streams(["make", "-n", "--no-print-directory", target, "PREFIX=/nonexistent", "SWIFT=echo"],
                                    in: LanesCommandLine.repositoryRoot.path)
        #expect(result.status == 0, "\(result.output)\(result.error)")
        return result.output
    }

    @Test(arguments: ["demo", "install"]) func installsNoTestTool(target: String) async throws {
        let commands = try await Self.dryRun(target)
        #expect(commands.contains("libgit2"), "\(commands)")
        let named = Self.testTools.filter { commands.contains($0) }
        #expect(named.isEmpty, "make -n \(target) names \(named):\n\(commands)")
    }

    /// The tests do get their tools, and find the virtual environment's Python first.
    @Test func testInstallsTheToolsIntoAVirtualEnvironment() async throws {
        let commands = try await Self.dryRun("test")
        #expect(commands.contains("python3 -m venv"))
        #expect(commands.contains("chromium") && commands.contains("selenium"))
        // The test binary runs with the venv first on PATH (Linux: the binary itself; macOS: `swift test`).
        let path = #"PATH="\#(LanesCommandLine.repositoryRoot.path)/.build/venv/bin:$PATH" "#
        #expect(commands.split(separator: "\n").contains { $0.contains(path) && ($0.contains("lanesPackageTests.xctest") || $0.contains("echo test")) },
                "\(commands)")
    }
}
