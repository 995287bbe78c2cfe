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

    /// Whether `number` is ignored (`SIG_IGN`), as a parent may leave it: `nohup` ignores SIGHUP so
    /// that a closed terminal does not stop what it started, and that choice is kept.
    public static func isIgnored(_ number: Int32) -> Bool {
        var current = sigaction()
        guard sigaction(number, nil, &current) == 0 else { return false }
        // SIG_IGN is the handler address 1 on every C library lanes builds on.
        return handlerAddress(current) == 1
    }
}
