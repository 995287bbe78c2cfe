import LanesPlatform

/// Runs a program to completion with its standard output and error captured together (the compiler's
/// diagnostics), through posix_spawn.
enum ChildProcess {
    struct Outcome {
        let status: Int32
        let output: String
    }

    static func run(_ arguments: [String]) throws -> Outcome {
        var pipeEnds: [Int32] = [0, 0]
        guard pipe(&pipeEnds) == 0 else { throw spawnError(arguments[0], errno) }
        var actions = posix_spawn_file_actions_t()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        posix_spawn_file_actions_addclose(&actions, pipeEnds[0])
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 1)
        posix_spawn_file_actions_adddup2(&actions, pipeEnds[1], 2)
        posix_spawn_file_actions_addclose(&actions, pipeEnds[1])
        posix_spawn_file_actions_addopen(&actions, 0, "/dev/null", O_RDONLY, 0)

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let spawned = posix_spawnp(&pid, arguments[0], &actions, nil, argv, ProcessEnvironment.block)
        close(pipeEnds[1])
        guard spawned == 0 else {
            close(pipeEnds[0])
            throw spawnError(arguments[0], spawned)
        }
        let output = FileDescriptorIO.readAll(from: pipeEnds[0]) ?? []
        close(pipeEnds[0])
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0, errno == EINTR {}
        let exited = (status & 0x7f) == 0
        return Outcome(status: exited ? (status >> 8) & 0xff : 128 + (status & 0x7f),
                       output: String(decoding: output, as: UTF8.self))
    }

    private static func spawnError(_ what: String, _ code: Int32) -> DriverError {
        DriverError("cannot run \(what): \(String(cString: strerror(code)))", exitStatus: DriverError.configuration)
    }
}
