import LanesPlatform
import Synchronization

/// What a program did: its exit status (as a shell reports it: 128 plus the signal that ended it),
/// and what it wrote on standard output and error.
public struct ProgramResult: Sendable {
    public let status: Int32
    public let standardOutput: String
    public let standardError: String
    public var output: String { standardOutput + standardError }
}

/// The one way the tests start a program (the `lanes` binaries, git, openssl, python): through the
/// real host's launcher and its one monitor thread, argv only, awaited, never a thread blocked on a
/// pipe or a `waitpid`. Foundation's `Process` is not used: its `waitUntilExit` and
/// `readDataToEndOfFile` block threads of the cooperative pool, which stalled whole test runs.
public enum Program {
    /// Runs `arguments` to its end (a bare program name is looked up on `PATH`).
    public static func run(_ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil,
                           input: [UInt8]? = nil) async throws -> ProgramResult {
        await (try start(arguments, in: directory, environment: environment, input: input)).finish()
    }

    /// `run` as a triple: the status, standard output and standard error apart.
    public static func streams(_ arguments: [String], in directory: String? = nil) async throws -> (status: Int32, output: String, error: String) {
        let result = try await run(arguments, in: directory)
        return (result.status, result.standardOutput, result.standardError)
    }

    /// Runs a tool with this process's environment plus `additions` (secrets go there, never in
    /// arguments); its standard output and error together (errors after output).
    public static func tool(_ arguments: [String], environment additions: [String: String] = [:], in directory: String? = nil) async throws -> String {
        let environment = ProcessEnvironment.current().merging(additions) { $1 }
        return try await run(arguments, in: directory, environment: environment).output
    }

    /// Whether `arguments` exits 0, answered synchronously: for a suite's `.enabled(if:)` condition
    /// (a tool or a Python package is installed), evaluated once before its tests. Through the same
    /// launcher; the wait is the child's end as the OS reports it, never a sleep.
    public static func succeeds(_ arguments: [String]) -> Bool {
        var child = ChildProcess(arguments)
        child.ownProcessGroup = false
        return (try? child.runCapturingOutput(input: nil, started: { _ in }) { _, _ in }) == .exited(0)
    }

    /// Starts `arguments`; the program runs on while the test does other things.
    public static func start(_ arguments: [String], in directory: String? = nil, environment: [String: String]? = nil,
                             input: [UInt8]? = nil) throws -> RunningProgram {
        var child = ChildProcess(arguments, environment: environment, workingDirectory: directory)
        // A test sends signals to the program itself, not to a group it leads.
        child.ownProcessGroup = false
        return RunningProgram(try SystemHost.spawn(child, input: input))
    }
}

/// A program `Program.start` started: what it has printed so far, waits for a piece of it, its end.
public final class RunningProgram: Sendable {
    public let pid: Int32
    private let child: HostChild
    private let box = CollectedBox()
    private let reader: Task<Void, Never>

    init(_ child: HostChild) {
        self.child = child
        pid = child.pid
        let box = self.box
        reader = Task {
            for await chunk in child.output { box.append(chunk) }
            box.end()
        }
    }

    /// Sends signal `number` to the program.
    public func send(_ number: Int32) { SystemHost.kill(pid, signal: number) }

    public var isRunning: Bool { child.endedStatus == nil }

    /// Standard output and error so far.
    public var outputSoFar: String { box.text }

    /// Returns true once the output holds `piece`, false when the program's output ended without it.
    public func waitForOutput(_ piece: String) async -> Bool { await box.wait(for: piece) }

    /// Waits for the program's end.
    public func finish() async -> ProgramResult {
        await reader.value
        let status = await child.status()
        let (output, errors) = box.streams
        return ProgramResult(status: status.shellStatus, standardOutput: output, standardError: errors)
    }
}

/// The bytes a running program wrote, and who waits for what.
private final class CollectedBox: Sendable {
    private struct State {
        var output: [UInt8] = []
        var errors: [UInt8] = []
        var ended = false
        var waiters: [(String, CheckedContinuation<Bool, Never>)] = []
    }
    private let state = Mutex(State())

    func append(_ chunk: ChildOutputChunk) {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            if chunk.stream == .standardOutput { state.output += chunk.bytes } else { state.errors += chunk.bytes }
            let text = String(decoding: state.output + state.errors, as: UTF8.self)
            let met = state.waiters.filter { text.contains($0.0) }.map(\.1)
            state.waiters.removeAll { text.contains($0.0) }
            return met
        }
        ready.forEach { $0.resume(returning: true) }
    }

    func end() {
        let waiting = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.ended = true
            defer { state.waiters = [] }
            return state.waiters.map(\.1)
        }
        waiting.forEach { $0.resume(returning: false) }
    }

    var text: String { state.withLock { String(decoding: $0.output + $0.errors, as: UTF8.self) } }
    var streams: (String, String) { state.withLock { (String(decoding: $0.output, as: UTF8.self), String(decoding: $0.errors, as: UTF8.self)) } }

    func wait(for piece: String) async -> Bool {
        await withCheckedContinuation { continuation in
            let answer = state.withLock { state -> Bool? in
                if String(decoding: state.output + state.errors, as: UTF8.self).contains(piece) { return true }
                if state.ended { return false }
                state.waiters.append((piece, continuation))
                return nil
            }
            if let answer { continuation.resume(returning: answer) }
        }
    }
}

/// A thread of its own for a test server that blocks in `accept` and `recv` (a cooperative pool
/// thread must never block); nobody joins it.
public func startThread(_ body: @escaping @Sendable () -> Void) {
    do { try PlatformThread.detach(body) } catch { fatalError("cannot start a test thread: \(error)") }
}
