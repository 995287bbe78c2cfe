#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// Tells a subcommand (served by `lanes-tool`) from a lane. A subcommand wins over a lane of the same
/// name; a test keeps this list equal to the tool's subcommands.
enum DriverCommandLine {
    static let subcommands: Set<String> = ["init", "actions", "run", "cron", "cert", "profile", "xcode", "git", "upload"]
    static let helpWords: Set<String> = ["-h", "--help", "help", "--version", "--generate-completion-script"]

    static func isSubcommand(_ arguments: [String]) -> Bool {
        guard let first = arguments.first else { return true }
        return subcommands.contains(first) || helpWords.contains(first)
    }
}
