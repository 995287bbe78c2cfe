/// Every exit status `lanes` can end with, for the driver, `lanes-tool` and a compiled Lanefile
/// alike; the README's table is this one.
public enum ExitStatus: Int32, Sendable, CaseIterable {
    case success = 0
    /// A step or the lane's own code failed, or a check (`lanes cert check`) found a problem.
    case laneFailed = 1
    /// Unknown lane, subcommand or option; a malformed `key:value` (BSD's EX_USAGE).
    case usage = 64
    /// The Lanefile did not compile (EX_DATAERR).
    case compilation = 65
    /// A bug in lanes itself (EX_SOFTWARE).
    case internalError = 70
    /// A missing or wrong variable, secret, file or setting (EX_CONFIG).
    case configuration = 78
    /// Ctrl-C or SIGTERM stopped the lane; cleanups ran (128 + SIGINT, as shells report it).
    case interrupted = 130
}
