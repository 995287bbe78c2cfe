import Foundation
import LanesPlatform
import LanesHTTP

/// Starts programs with posix_spawn and waits with waitpid. Foundation's Process left a finished
/// child unreaped (and its waitUntilExit blocked forever) when two children ran at once.
enum Spawn {
    /// Starts `arguments[0]` (found on PATH) with its output appended to `outputPath`; returns its pid.
    static func start(_ arguments: [String], outputPath: String = "/dev/null", inputPath: String = "/dev/null",
                      environment: [String: String]? = nil) throws -> pid_t {
        var actions = ChildProcess.newFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 0, inputPath, O_RDONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 1, outputPath, O_WRONLY | O_CREAT | O_APPEND, 0o644)
        posix_spawn_file_actions_adddup2(&actions, 1, 2)
        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        let variables = (environment ?? ProcessInfo.processInfo.environment).map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { variables.forEach { free($0) } }
        var pid = pid_t()
        let status = posix_spawnp(&pid, arguments[0], &actions, nil, argv, variables)
        guard status == 0 else { throw SpawnFailure(description: "cannot start \(arguments[0]): \(String(cString: strerror(status)))") }
        return pid
    }

    /// Runs to completion; returns the exit status.
    static func run(_ arguments: [String], outputPath: String = "/dev/null", inputPath: String = "/dev/null",
                    environment: [String: String]? = nil) throws -> Int32 {
        let pid = try start(arguments, outputPath: outputPath, inputPath: inputPath, environment: environment)
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 && errno == EINTR {}
        return (status & 0x7f) == 0 ? (status >> 8) & 0xff : 128 + (status & 0x7f)
    }

    /// Runs to completion with `input` on standard input; returns the status and everything it printed.
    static func output(_ arguments: [String], input: [UInt8] = [], environment: [String: String]? = nil) throws -> (status: Int32, output: Data) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-spawn-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        let inputURL = folder.appendingPathComponent("in"), outputURL = folder.appendingPathComponent("out")
        try Data(input).write(to: inputURL)
        let status = try run(arguments, outputPath: outputURL.path, inputPath: inputURL.path, environment: environment)
        return (status, (try? Data(contentsOf: outputURL)) ?? Data())
    }

    struct SpawnFailure: Error, CustomStringConvertible { let description: String }
}
