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
}
