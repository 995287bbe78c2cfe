import LanesTestSupport
import Foundation

/// The `lanes` executable of this worktree's debug build, run as a child process.
enum LanesBinary {
    static let path = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent(".build/debug/lanes").path

    struct Running {
        let process: Process
        let pipe: Pipe
        let errors: Pipe

        func finish() -> (status: Int32, output: String, errors: String) {
            let output = pipe.fileHandleForReading.readDataToEndOfFile()
            let errorOutput = errors.fileHandleForReading.readDataToEndOfFile()
            process.waitUntilExit()
            return (process.terminationStatus, String(decoding: output, as: UTF8.self), String(decoding: errorOutput, as: UTF8.self))
        }
    }

    struct Missing: Error, CustomStringConvertible {
        var description: String { "\(LanesBinary.path) does not exist: run `swift build` first (make test does)" }
    }

    /// Starts lanes with `arguments`; `environment` adds to a minimal environment (secrets go here).
    static func start(_ arguments: [String], environment: [String: String] = [:]) throws -> Running {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()].merging(environment) { $1 }
        let pipe = Pipe(), errors = Pipe()
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        return Running(process: process, pipe: pipe, errors: errors)
    }

    /// Starts lanes with its standard output pipe already full, so the process stays alive (blocked
    /// on its first write) until `Running.finish()` drains the pipe: its `/proc` entries and those of
    /// any children can be inspected without a race. Returns the running process and the filler
    /// size to drop from the output.
    static func startHeld(_ arguments: [String], environment: [String: String] = [:]) throws -> (Running, Int) {
        guard FileManager.default.isExecutableFile(atPath: path) else { throw Missing() }
        let process = Process()
        process.executableURL = URL(fileURLWithPath: path)
        process.arguments = arguments
        process.environment = ["PATH": "/usr/bin:/bin", "HOME": NSTemporaryDirectory()].merging(environment) { $1 }
        let pipe = Pipe(), errors = Pipe()
        let descriptor = pipe.fileHandleForWriting.fileDescriptor
        let flags = fcntl(descriptor, F_GETFL)
        _ = fcntl(descriptor, F_SETFL, flags | O_NONBLOCK)
        var filled = 0
        let chunk = [UInt8](repeating: 0x2E, count: 4096)
        while true {
            let written = chunk.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
            if written <= 0 { break }
            filled += written
        }
        _ = fcntl(descriptor, F_SETFL, flags)
        process.standardOutput = pipe
        process.standardError = errors
        try process.run()
        return (Running(process: process, pipe: pipe, errors: errors), filled)
    }

    static func run(_ arguments: [String], environment: [String: String] = [:]) throws -> (status: Int32, output: String, errors: String) {
        try start(arguments, environment: environment).finish()
    }
}
