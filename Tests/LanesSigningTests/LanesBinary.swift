import Foundation
import LanesPlatform
import LanesTestSupport

/// The `lanes` executable of this worktree's debug build, run as a child process through the tests'
/// one launcher (`Program`), with a minimal environment (secrets added by each test).
enum LanesBinary {
    static let path = LanesCommandLine.built("lanes")

    struct Missing: Error, CustomStringConvertible {
        var description: String { "\(LanesBinary.path) does not exist: run `swift build` first (make test does)" }
    }

    static func environment(_ additions: [String: String]) -> [String: String] {
        ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()].merging(additions) { $1 }
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) async throws -> (status: Int32, output: String, errors: String) {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing() }
        let result = try await Program.run([path] + arguments, environment: Self.environment(environment))
        return (result.status, result.standardOutput, result.standardError)
    }

    /// A lanes whose standard output is a pipe filled before it started: it stays alive (blocked on
    /// its first write) until `finish()` drains the pipe, so its `/proc` entries and those of any
    /// children can be inspected without a race.
    struct Held {
        let child: HostChild
        let readEnd: Int32

        var pid: Int32 { child.pid }

        func finish() async throws -> (status: Int32, output: String) {
            let readEnd = self.readEnd
            let bytes = try await BlockingThread.run(onCancel: {}) { FileDescriptorIO.readAll(from: readEnd) ?? [] }
            close(readEnd)
            return (await child.status().shellStatus, String(decoding: bytes, as: UTF8.self))
        }
    }

    /// Starts lanes held (see `Held`); returns it and the filler's size to drop from the output.
    static func startHeld(_ arguments: [String], environment: [String: String] = [:]) throws -> (Held, Int) {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing() }
        var ends: [Int32] = [-1, -1]
        guard pipe(&ends) == 0 else { throw Missing() }
        for end in ends { _ = fcntl(end, F_SETFD, FD_CLOEXEC) }
        let flags = fcntl(ends[1], F_GETFL)
        _ = fcntl(ends[1], F_SETFL, flags | O_NONBLOCK)
        var filled = 0
        let chunk = [UInt8](repeating: 0x2E, count: 4096)
        while true {
            let written = chunk.withUnsafeBytes { write(ends[1], $0.baseAddress, $0.count) }
            if written <= 0 { break }
            filled += written
        }
        _ = fcntl(ends[1], F_SETFL, flags)
        var child = ChildProcess([path] + arguments, environment: Self.environment(environment))
        child.standardOutput = .descriptor(ends[1])
        child.standardError = .standardOutput
        child.ownProcessGroup = false
        let started: HostChild
        do { started = try SystemHost.launch(child) } catch {
            ends.forEach { close($0) }
            throw error
        }
        close(ends[1])
        return (Held(child: started, readEnd: ends[0]), filled)
    }
}
