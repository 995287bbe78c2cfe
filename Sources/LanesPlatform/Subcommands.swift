/// The words `lanes` reads as commands rather than lane names. The driver routes by these lists, a
/// Lanefile may not name a lane after one of them, and a test keeps `tool` equal to the tool's tree.
public enum Subcommands {
    /// Served by `lanes-tool`.
    public static let tool: Set<String> = [
        "init", "actions", "run", "cron", "cert", "profile", "xcode", "git",
        "schedule", "daemon", "history", "logs", "export", "env", "completion", "upload", "serve", "doctor",
        "packages", "new", "asc", "match", "import",
    ]
    /// Answered by the compiled Lanefile itself.
    public static let runner: Set<String> = ["list"]
    public static var names: Set<String> { tool.union(runner) }
}
