import Foundation
@testable import LanesCommands
import LanesPlatform
import LanesTestSupport
import Testing

/// A SwiftPM run that fails without a word (seen once on a loaded CI machine after a complete
/// `dump-package`) is run once more; one that says why it failed is not, and the error says how it ended.
@Suite struct SwiftPMSilentFailureTests {
    /// A stand-in `swift` beside a stand-in `swiftc` (PackageBuilder runs the sibling): it fails with
    /// status 3 (or by `signal`) the first `failures` times, saying `message` on standard error, then prints `{}`.
    static func builder(failures: Int, message: String = "", signal: String? = nil) throws -> (PackageBuilder, calls: URL) {
        let folder = LanesCommandLine.temporaryDirectory("swiftpm-silent")
        let calls = folder.appendingPathComponent("calls")
        try AtomicFile.write("", to: calls.path)
        try AtomicFile.write("#!/bin/sh\nexit 0\n", to: folder.appendingPathComponent("swiftc").path, permissions: 0o755)
        try AtomicFile.write("""
            #!/bin/sh
            echo x >> '\(calls.path)'
            if [ "$(wc -l < '\(calls.path)')" -le \(failures) ]; then printf '%s' '\(message)' >&2; \(signal.map { "kill -\($0) $$; " } ?? "")exit 3; fi
            echo '{}'

            """, to: folder.appendingPathComponent("swift").path, permissions: 0o755)
        let builder = PackageBuilder(manifest: folder.path + "/lanes/Package.swift", scratch: folder.path + "/scratch", output: folder.path + "/out",
                                     modulesDirectory: folder.path, libraryDirectory: folder.path,
                                     swiftc: folder.appendingPathComponent("swiftc").path)
        return (builder, calls)
    }

    /// `swiftPM` on a thread of its own (it blocks until SwiftPM ends): its output or its error's text.
    static func run(_ builder: PackageBuilder) async -> (output: String?, error: String) {
        await withCheckedContinuation { continuation in
            startThread {
                do {
                    continuation.resume(returning: (try builder.swiftPM(["package", "dump-package"]) { "failed:\n" + $0 }, ""))
                } catch {
                    continuation.resume(returning: (nil, "\(error)"))
                }
            }
        }
    }

    static func callCount(_ calls: URL) throws -> Int {
        try String(contentsOf: calls, encoding: .utf8).split(separator: "\n").count
    }

    @Test func aSilentFailureIsRunOnceMore() async throws {
        let (builder, calls) = try Self.builder(failures: 1)
        let result = await Self.run(builder)
        #expect(result.output == "{}\n", "\(result.error)")
        #expect(try Self.callCount(calls) == 2)
    }

    @Test func twoSilentFailuresFailSayingHowSwiftPMEnded() async throws {
        let (builder, calls) = try Self.builder(failures: 2)
        let result = await Self.run(builder)
        #expect(result.output == nil)
        #expect(result.error.contains("failed:"), "\(result.error)")
        #expect(result.error.contains("(SwiftPM ended with status 3 and no message)"), "\(result.error)")
        #expect(try Self.callCount(calls) == 2)
    }

    @Test func aSilentCrashIsRunOnceMoreButAStopRequestIsNot() async throws {
        for (signal, calls) in [("KILL", 2), ("SEGV", 2), ("TERM", 1), ("INT", 1)] {
            let (builder, counter) = try Self.builder(failures: 1, signal: signal)
            let result = await Self.run(builder)
            #expect(try Self.callCount(counter) == calls, "\(signal)")
            #expect((result.output != nil) == (calls == 2), "\(signal): \(result.error)")
        }
    }

    @Test func aFailureThatSaysWhyIsNotRetried() async throws {
        let (builder, calls) = try Self.builder(failures: 1, message: "error: manifest parse error")
        let result = await Self.run(builder)
        #expect(result.output == nil)
        #expect(result.error.contains("error: manifest parse error"), "\(result.error)")
        #expect(!result.error.contains("no message"))
        #expect(try Self.callCount(calls) == 1)
    }
}
