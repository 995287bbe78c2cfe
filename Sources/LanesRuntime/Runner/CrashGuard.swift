internal import LanesPlatform

/// What happens when lane code crashes (`fatalError`, a force unwrap of nil, an out-of-range index):
/// the runtime's own message still reaches the terminal through the redacting pipes, then one line
/// names the lane and the signal, and the process exits with `exitStatus`, which the README
/// documents. Cleanups cannot run in a crashing process; what they would have removed (keychains,
/// a macOS keychain's search-list entry, temporary files) is removed by the next run
/// (`SigningConfiguration.removeLeftoverKeychains`).
///
/// While secrets are held, the process is also made non-dumpable and its core size limit is 0, so
/// a crash (or another process of the same user attaching) cannot copy a secret out of memory.
enum CrashGuard {
    /// The exit status of a lane whose code crashed.
    static let exitStatus: Int32 = 71
    static let signals: [Int32] = [SIGILL, SIGTRAP, SIGABRT, SIGSEGV, SIGBUS, SIGFPE]

    /// A signal handler is a C function without context: what it needs is prepared here, before
    /// any crash, and only read from the handler. This is the one place lanes keeps process-wide
    /// state, because POSIX offers signal handlers no other way.
    private struct Armed {
        let streams: RedactedStandardStreams
        /// Per signal number, the whole message, ready to write(2).
        let messages: [[UInt8]]
    }
    nonisolated(unsafe) private static var armed: Armed?

    /// Keeps secrets out of core files and out of reach of debuggers and memory readers (`SecretMemory`).
    /// Returns a note for the run's standard error when a debugger or tracer was already attached.
    static func protectSecretsInMemory() -> String? {
        switch SecretMemory.protect() {
        case .sealed: nil
        case .alreadyTraced: tracedNote
        }
    }

    /// What a traced run says, once, when its first secret arrives: it goes on (a debugger session is
    /// legitimate), but the debugger can read what the lane holds.
    static let tracedNote = "note: a debugger or tracer is attached to this run: it can read the secrets in this process's memory "
        + "(lanes refuses debuggers only for runs started without one)"


    /// Prepares the crash message for `lane` and installs the handlers.
    static func arm(lane: String, streams: RedactedStandardStreams) {
        var messages = [[UInt8]](repeating: [], count: 65)
        for number in signals {
            let text = "\nerror: lane \(lane) crashed with \(name(of: number)) (\(explanation(of: number)))\n"
                + "  cleanups could not run; the next lanes run removes the keychains and temporary files this one left\n"
            messages[Int(number)] = Array(text.utf8)
        }
        armed = Armed(streams: streams, messages: messages)
        for number in signals {
            SignalHandler.install(number, flags: Int32(truncatingIfNeeded: SA_RESETHAND)) { number in CrashGuard.handle(number) }
        }
    }

    private static func handle(_ number: Int32) {
        guard let armed else { _exit(exitStatus) }
        // A crashing process may hold a lock that what follows needs: never hang a CI job on it.
        alarm(5)
        // What the Lanefile printed before crashing still sits in stdio's buffer.
        fflush(nil)
        // The readers of the redirected streams run on threads of their own: put the real streams
        // back and give them a moment to pass on what the crashing code wrote (the runtime's message).
        armed.streams.restoreAfterCrash(waitingAtMost: .seconds(1))
        let message = Int(number) < armed.messages.count ? armed.messages[Int(number)] : []
        message.withUnsafeBytes { _ = write(2, $0.baseAddress, $0.count) }
        _exit(exitStatus)
    }

    static func name(of number: Int32) -> String {
        switch number {
        case SIGILL: "SIGILL"
        case SIGTRAP: "SIGTRAP"
        case SIGABRT: "SIGABRT"
        case SIGSEGV: "SIGSEGV"
        case SIGBUS: "SIGBUS"
        case SIGFPE: "SIGFPE"
        default: "signal \(number)"
        }
    }

    private static func explanation(of number: Int32) -> String {
        switch number {
        case SIGILL, SIGTRAP: "a Swift runtime error: fatalError, a force unwrap of nil, an index out of range"
        case SIGSEGV, SIGBUS: "invalid memory access, or a stack overflow from deep recursion"
        case SIGABRT: "aborted"
        case SIGFPE: "arithmetic error"
        default: "crash"
        }
    }
}
