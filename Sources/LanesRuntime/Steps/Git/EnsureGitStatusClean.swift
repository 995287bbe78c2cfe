import LanesGit

/// `ensure_git_status_clean`: refuse to go on from a working tree with changes.
public struct EnsureGitStatusClean: Step {
    public static let definition = StepDefinition(
        id: "ensure_git_status_clean",
        summary: "Fail unless there are no staged, unstaged or untracked changes (ignored files do not count)",
        category: .git,
        examples: [
            StepExample(swift: "try await ensureGitStatusClean()", commandLine: []),
            StepExample(swift: "try await ensureGitStatusClean(ignoreFiles: [\"fastlane/README.md\"])",
                        commandLine: ["ignore_files:fastlane/README.md"]),
        ]
    )

    @StepOption("ignore_files", "Paths whose changes do not count (a file or a directory ending in /)", default: [])
    var ignoreFiles: [String]

    public init() {}

    public func run(in context: StepContext) async throws {
        let repository = try context.openRepository()
        let status = try repository.status()
        let dirty = status.entries.filter { entry in
            !ignoreFiles.contains { entry.path == $0 || ($0.hasSuffix("/") && entry.path.hasPrefix($0)) }
        }
        guard dirty.isEmpty else {
            let shown = dirty.prefix(50).map { "  \(Self.code(for: $0)) \($0.path)" }
            let more = dirty.count > 50 ? ["  ... and \(dirty.count - 50) more"] : []
            throw LanesError(.laneFailure,
                             "git status is not clean in \(repository.workingDirectory ?? context.projectDirectory): \(dirty.count) changed path\(dirty.count == 1 ? "" : "s")\n"
                                + (shown + more).joined(separator: "\n"),
                             hint: "commit or stash these changes, add build output to .gitignore, or undo a lane's edits with reset_git_repo")
        }
        context.values[GitStatusWasClean.self] = true
        context.log.line("git status is clean")
    }

    /// The two-letter code `git status --short` shows for an entry.
    static func code(for entry: WorkingTreeStatus.Entry) -> String {
        if entry.isUntracked { return "??" }
        return letter(entry.staged) + letter(entry.unstaged)
    }

    private static func letter(_ change: WorkingTreeStatus.Change?) -> String {
        switch change {
        case nil: " "
        case .added: "A"
        case .modified: "M"
        case .deleted: "D"
        case .renamed: "R"
        case .typeChanged: "T"
        case .untracked: "?"
        case .conflicted: "U"
        }
    }
}
