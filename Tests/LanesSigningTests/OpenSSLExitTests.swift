import LanesTestSupport
import Foundation
import Testing

/// Every lanes entry into OpenSSL starts it without its atexit cleanup, whichever comes first in a
/// process: otherwise a thread still inside OpenSSL while the process exits (a test worker, a
/// daemon task) takes a lock OpenSSL just freed and the process dies with SIGSEGV.
@Suite("OpenSSL's exit cleanup stays off", .timeLimit(.minutes(10)))
struct OpenSSLExitTests {
    /// OpenSSLExitHelper: beside the test executable on Linux (whatever the scratch path, sanitizer
    /// builds too), else where `swift build` puts it (macOS runs the bundle through a runner).
    static let helper: String = {
        let beside = URL(fileURLWithPath: CommandLine.arguments[0]).deletingLastPathComponent().appendingPathComponent("OpenSSLExitHelper").path
        if FileManager.default.isExecutableFile(atPath: beside) { return beside }
        return LanesCommandLine.repositoryRoot.appendingPathComponent(".build/debug/OpenSSLExitHelper").path
    }()

    static func run(_ entry: String) async throws -> String {
        let result = try await Program.streams([helper, entry])
        #expect(result.status == 0, "\(entry): \(result.error)")
        return result.output
    }

    @Test func theDetectorSeesAnUnstartedOpenSSL() async throws {
        #expect(try await Self.run("unstarted") == "entered\ncleanup ran\n")
    }

    /// A pool thread that read a .p12 for a task, and ends after the identity went away on another
    /// thread, releases its OpenSSL state for the identity's library context: that context must
    /// still exist then (it was freed with the identity, and the thread died in
    /// CRYPTO_THREAD_read_lock, taking the test process down late in `make test`).
    @Test func aThreadThatUsedTheContextEndsAfterItsIdentityIsGone() async throws {
        let result = try await Program.streams([Self.helper, "thread-exit", Fixture.p12("dist-emptypass-legacy")])
        #expect(result.status == 0, "\(result.error)")
        #expect(result.output == "thread ended\n", "\(result.output)")
    }

    @Test func noEntryLeavesTheCleanupOn() async throws {
        let entries = try await Self.run("--list").split(separator: "\n").map(String.init).filter { $0 != "unstarted" }
        #expect(entries.count >= 10)
        for entry in entries {
            #expect(try await Self.run(entry) == "entered\n", "\(entry) started OpenSSL with its atexit cleanup")
        }
    }
}
