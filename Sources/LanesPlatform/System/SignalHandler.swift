/// Installs a plain signal handler (`sa_handler`), whose field sits in a differently named union on each C library.
public enum SignalHandler {
    /// `handler` for `number`, with `flags` (such as `SA_RESETHAND`) and an empty mask.
    public static func install(_ number: Int32, flags: Int32 = 0, _ handler: @convention(c) (Int32) -> Void) {
        var action = sigaction()
        setHandler(&action, handler)
        action.sa_flags = flags
        sigemptyset(&action.sa_mask)
        sigaction(number, &action, nil)
    }

    /// The default action (ending the process) for `numbers`, unblocked in the calling thread, which
    /// later threads inherit: for a program with nothing to clean up (`lanes serve`), started by a
    /// parent that may have blocked or ignored them (a mask and an ignored signal survive exec).
    public static func restoreDefaults(_ numbers: [Int32]) {
        var set = sigset_t()
        sigemptyset(&set)
        for number in numbers {
            sigaddset(&set, number)
            signal(number, SIG_DFL)
        }
        pthread_sigmask(SIG_UNBLOCK, &set, nil)
    }

    /// Ends the process at once with `status` (`_exit`: no atexit handlers, no stdio flush), the one
    /// call a crash handler may make to end it.
    public static func endProcessFromHandler(status: Int32) -> Never {
        _exit(status)
    }

    /// Whether `number` is ignored (`SIG_IGN`), as a parent may leave it: `nohup` ignores SIGHUP so
    /// that a closed terminal does not stop what it started, and that choice is kept.
    public static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        // SIG_IGN is the handler address 1 on every C library lanes builds on.
        return handlerAddress(current) == 1
    }
}
