import Foundation
import LanesPlatform

/// Wall-clock timing of child processes, started with posix_spawn (Foundation's Process adds
/// start-up work of its own that would blur a few-millisecond difference).
enum Stopwatch {
    /// Milliseconds `body` took.
    static func measure(_ body: () throws -> Void) rethrows -> Double {
        let clock = ContinuousClock()
        let elapsed = try clock.measure(body)
        return Double(elapsed.components.seconds) * 1000 + Double(elapsed.components.attoseconds) / 1e15
    }

    /// Wall and CPU (user + system) milliseconds of one child process.
    struct Times {
        var wall: Double
        var cpu: Double
        static func + (lhs: Times, rhs: Times) -> Times { Times(wall: lhs.wall + rhs.wall, cpu: lhs.cpu + rhs.cpu) }
    }

    /// Runs `arguments` in `directory` with output discarded; returns its wall and CPU times.
    /// CPU time is the steadier figure on a machine shared with other work.
    static func run(_ arguments: [String], in directory: URL) throws -> Times {
        var actions = ChildProcess.newFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addopen(&actions, 1, "/dev/null", O_WRONLY, 0)
        posix_spawn_file_actions_addopen(&actions, 2, "/dev/null", O_WRONLY, 0)
        guard FileManager.default.changeCurrentDirectoryPath(directory.path) else {
            throw BenchmarkError("cannot enter \(directory.path)")
        }
        let argv = arguments.map { strdup($0) } + [nil]
        let environment = ProcessInfo.processInfo.environment.map { strdup("\($0.key)=\($0.value)") } + [nil]
        defer { (argv + environment).forEach { free($0) } }
        var pid: pid_t = 0
        var status: Int32 = 0
        var usage = rusage()
        let milliseconds = try measure {
            let spawned = posix_spawn(&pid, arguments[0], &actions, nil, argv, environment)
            guard spawned == 0 else { throw BenchmarkError("cannot start \(arguments[0]): \(String(cString: strerror(spawned)))") }
            wait4(pid, &status, 0, &usage)
        }
        guard status == 0 else { throw BenchmarkError("\(arguments.joined(separator: " ")) failed (wait status \(status))") }
        return Times(wall: milliseconds, cpu: Self.milliseconds(usage.ru_utime) + Self.milliseconds(usage.ru_stime))
    }

    private static func milliseconds(_ time: timeval) -> Double {
        Double(time.tv_sec) * 1000 + Double(time.tv_usec) / 1000
    }
}

/// Runs a command once and returns its standard output, for checking that the tools agree.
enum Capture {
    static func output(_ arguments: [String], in directory: URL) throws -> Data {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: arguments[0])
        process.arguments = Array(arguments.dropFirst())
        process.currentDirectoryURL = directory
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            throw BenchmarkError("\(arguments.joined(separator: " ")) failed with status \(process.terminationStatus)")
        }
        return data
    }
}
