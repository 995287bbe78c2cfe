#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one way lanes starts a process (the driver's compiler, a step's tool, the daemon's runs,
/// the CLI's helpers): `posix_spawn`, argv only (no shell), in a process group of its own unless
/// asked otherwise, with every signal's disposition reset to the default and an empty signal mask
/// (a parent that ignores SIGPIPE or blocks SIGTERM for its event loop must not pass that on).
public struct ChildProcess: Sendable {
    /// Where one of the child's standard streams goes.
    public enum Stream: Sendable, Equatable {
        /// The parent's own descriptor.
        case inherit
        case null
        /// A descriptor of the parent, duplicated into the child.
        case descriptor(Int32)
        /// A file opened for appending (created with `mode`; never through a symbolic link).
        case appending(path: String, mode: mode_t)
        /// The same place as standard output (only for standard error).
        case standardOutput
    }

    /// argv; the first is the program, found on `PATH` when it has no slash.
    public var arguments: [String]
    /// The complete environment; nil inherits the parent's.
    public var environment: [String: String]?
    public var workingDirectory: String?
    public var standardInput: Stream = .null
    public var standardOutput: Stream = .inherit
    public var standardError: Stream = .inherit
    /// A process group of its own (its pid), so that the whole group can be ended; false keeps the
    /// parent's group (the driver's compiler, which Ctrl-C at the terminal must reach directly).
    public var ownProcessGroup = true
    /// Descriptors of the parent the child must not inherit (the parent's ends of its pipes).
    public var closeInChild: [Int32] = []

    public init(_ arguments: [String], environment: [String: String]? = nil, workingDirectory: String? = nil) {
        self.arguments = arguments
        self.environment = environment
        self.workingDirectory = workingDirectory
    }

    /// Starts the child; its process id, which is also its process group with `ownProcessGroup`.
    public func start() throws(SpawnFailure) -> Int32 {
        guard let name = arguments.first else { throw SpawnFailure(program: "", code: EINVAL) }
        // A bare name is looked up on the child's PATH (as a shell would), not this process's.
        var program = name
        if !name.contains("/"), let environment {
            guard let found = FilePath.which(name, path: environment["PATH"]) else { throw SpawnFailure(program: name, code: ENOENT) }
            program = found
        }
        var actions = Self.newFileActions()
        posix_spawn_file_actions_init(&actions)
        defer { posix_spawn_file_actions_destroy(&actions) }
        Self.add(standardInput, as: 0, to: &actions)
        Self.add(standardOutput, as: 1, to: &actions)
        Self.add(standardError, as: 2, to: &actions)
        for descriptor in closeInChild { posix_spawn_file_actions_addclose(&actions, descriptor) }
        if let workingDirectory { Self.addChangeDirectory(workingDirectory, to: &actions) }

        var attributes = Self.newAttributes()
        posix_spawnattr_init(&attributes)
        defer { posix_spawnattr_destroy(&attributes) }
        var empty = sigset_t()
        sigemptyset(&empty)
        var everySignal = sigset_t()
        sigfillset(&everySignal)
        posix_spawnattr_setsigmask(&attributes, &empty)
        posix_spawnattr_setsigdefault(&attributes, &everySignal)
        var flags = Int32(POSIX_SPAWN_SETSIGMASK) | Int32(POSIX_SPAWN_SETSIGDEF)
        if ownProcessGroup {
            posix_spawnattr_setpgroup(&attributes, 0)
            flags |= Int32(POSIX_SPAWN_SETPGROUP)
        }
        posix_spawnattr_setflags(&attributes, Int16(flags))

        let argv = arguments.map { strdup($0) } + [nil]
        defer { argv.forEach { free($0) } }
        var pid: pid_t = 0
        let envp = environment.map { $0.map { strdup("\($0.key)=\($0.value)") } + [nil] }
        defer { envp?.forEach { free($0) } }
        var code: Int32 = 0
        // A program written just before (a script) is "busy" while another thread's child, between its
        // fork and its exec, still holds the writer's descriptor: that lasts a moment, so wait it out.
        for backoff in [0, 1, 2, 4, 8, 16, 32, 64, 128, 256] {
            if backoff > 0 { Self.pause(milliseconds: backoff) }
            code = envp.map { envp in
                program.contains("/") ? posix_spawn(&pid, program, &actions, &attributes, argv, envp)
                    : posix_spawnp(&pid, program, &actions, &attributes, argv, envp)
            } ?? (program.contains("/") ? posix_spawn(&pid, program, &actions, &attributes, argv, ProcessEnvironment.block)
                    : posix_spawnp(&pid, program, &actions, &attributes, argv, ProcessEnvironment.block))
            guard code == Self.programBusy else { break }
        }
        guard code == 0 else { throw SpawnFailure(program: program, code: code) }
        return pid
    }

    private static func pause(milliseconds: Int) {
        var request = timespec(tv_sec: 0, tv_nsec: milliseconds * 1_000_000), remaining = timespec()
        while nanosleep(&request, &remaining) < 0 && errno == EINTR { request = remaining }
    }

    // Code that calls posix_spawn itself (a benchmark that reads a child's rusage through wait4) makes its
    // file actions with `newFileActions()` (one file per OS): an opaque pointer on Darwin, a struct on
    // glibc, so `posix_spawn_file_actions_t()` compiles on one of them only.

    private static func add(_ stream: Stream, as target: Int32, to actions: inout FileActions) {
        switch stream {
        case .inherit: break
        case .null: posix_spawn_file_actions_addopen(&actions, target, "/dev/null", target == 0 ? O_RDONLY : O_WRONLY, 0)
        case .descriptor(let descriptor): posix_spawn_file_actions_adddup2(&actions, descriptor, target)
        case .appending(let path, let mode): posix_spawn_file_actions_addopen(&actions, target, path, O_WRONLY | O_CREAT | O_APPEND | O_NOFOLLOW, mode)
        case .standardOutput: posix_spawn_file_actions_adddup2(&actions, 1, target)
        }
    }

    /// Waits for `pid` to end (retrying interrupted waits) and reaps it.
    public static func wait(_ pid: Int32) -> WaitStatus {
        var status: Int32 = 0
        while waitpid(pid, &status, 0) < 0 {
            if errno != EINTR {
                reportLostStatus(pid)
                return .exited(127)
            }
        }
        return WaitStatus(raw: status)
    }

    /// Reaps `pid` if it has ended; nil while it runs.
    public static func reapIfEnded(_ pid: Int32) -> WaitStatus? {
        var status: Int32 = 0
        let result = waitpid(pid, &status, WNOHANG)
        return result == pid ? WaitStatus(raw: status) : nil
    }

    /// A child's status that cannot be had (reaped by someone else): said on standard error, since the
    /// 127 reported in its place would otherwise pass for the child's own silent failure.
    static func reportLostStatus(_ pid: Int32) {
        FileDescriptorIO.writeAll(Array("lanes: the exit status of process \(pid) was lost (\(String(cString: strerror(errno))))\n".utf8), to: 2)
    }
}

/// How a child ended, decoded once from `waitpid`'s status word (the encoding POSIX systems share).
public enum WaitStatus: Sendable, Equatable {
    case exited(Int32)
    case signaled(Int32)

    public init(raw: Int32) {
        let signal = raw & 0x7f
        self = signal == 0 ? .exited((raw >> 8) & 0xff) : .signaled(signal)
    }

    /// Ended by a signal that asks a program to stop (Ctrl-C, SIGTERM, a closed terminal), as opposed
    /// to a crash or the kernel's SIGKILL.
    public var isRequestToStop: Bool {
        if case .signaled(let signal) = self { return [SIGINT, SIGTERM, SIGHUP].contains(signal) }
        return false
    }

    /// The status a shell reports: the exit code, or 128 plus the signal.
    public var shellStatus: Int32 {
        switch self {
        case .exited(let code): code
        case .signaled(let signal): 128 + signal
        }
    }

    /// The exit code, or nil when a signal ended the child.
    public var exitCode: Int32? {
        if case .exited(let code) = self { return code }
        return nil
    }
}

/// A child could not be started.
public struct SpawnFailure: Error, Sendable, CustomStringConvertible {
    public let program: String
    public let code: Int32
    public var description: String { "cannot run \(program): \(String(cString: strerror(code)))" }
}
