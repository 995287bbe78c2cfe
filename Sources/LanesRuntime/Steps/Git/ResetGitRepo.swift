import LanesGit

/// `reset_git_repo`: undo what a lane did to the working tree, as fastlane's action does
/// (fastlane/lib/fastlane/actions/reset_git_repo.rb): `git reset --hard HEAD`, then
/// `git clean -qfdx` (untracked and ignored files go, `.env` and `Pods/` too) unless
/// `skip_clean`, keeping `exclude`'s patterns; ignored files stay with
/// `disregard_gitignore: false`. `files` restores only those paths and cleans nothing. Like
/// fastlane's, it refuses unless the lane ran `ensure_git_status_clean` first or says `force`.
public struct ResetGitRepo: Step {
    public typealias Output = ResetResult

    public static let definition = StepDefinition(
        id: "reset_git_repo",
        summary: "Discard every change since HEAD: tracked edits, untracked and ignored files (git reset --hard; git clean -qfdx)",
        category: .git,
        examples: [
            StepExample(swift: "try await resetGitRepo()", commandLine: []),
            StepExample(swift: "try await resetGitRepo(files: [\"Brewer.xcodeproj/project.pbxproj\"], force: true)",
                        commandLine: ["files:Brewer.xcodeproj/project.pbxproj", "force:true"]),
            StepExample(swift: "try await resetGitRepo(skipClean: true)", commandLine: ["skip_clean:true"]),
            StepExample(swift: "try await resetGitRepo(disregardGitignore: false, exclude: [\"artifacts\"])",
                        commandLine: ["disregard_gitignore:false", "exclude:artifacts"]),
        ]
    )

    @StepOption("files", "Only these paths (files or directories), and no clean; default: everything", fastlaneEnv: ["FL_RESET_GIT_FILES"])
    var files: [String]?
    @StepOption("force", "Reset even though this lane did not run ensure_git_status_clean first", fastlaneEnv: ["FL_RESET_GIT_FORCE"], default: false)
    var force: Bool
    @StepOption("skip_clean", "Keep untracked files such as .env (no git clean)", fastlaneEnv: ["FL_RESET_GIT_SKIP_CLEAN"], default: false)
    var skipClean: Bool
    @StepOption("disregard_gitignore", "Also delete ignored files such as Pods/ and build output (git clean -x), as a fresh clone",
                fastlaneEnv: ["FL_RESET_GIT_DISREGARD_GITIGNORE"], default: true)
    var disregardGitignore: Bool
    @StepOption("exclude", "gitignore patterns that survive the clean (git clean -e), such as artifacts", fastlaneEnv: ["FL_RESET_GIT_EXCLUDE"])
    var exclude: [String]?

    public init() {}

    public func run(in context: StepContext) async throws -> ResetResult {
        guard force || context.values[GitStatusWasClean.self] == true else {
            throw LanesError(.laneFailure,
                             "reset_git_repo discards every uncommitted change, and this lane did not check that the repository was clean first",
                             hint: "call ensureGitStatusClean() at the start of the lane, or pass force: true (FL_RESET_GIT_FORCE) if losing uncommitted work is intended")
        }
        let repository = try context.openRepository()
        let root = repository.workingDirectory ?? context.projectDirectory
        // Paths are given relative to the project directory; git wants them relative to the top.
        let paths = files?.map { Self.relative(context.resolve($0), to: root) }
        let clean = paths == nil && !skipClean
        let result = try repository.resetToHead(paths: paths, removeUntracked: clean, removeIgnored: clean && disregardGitignore,
                                                keeping: exclude ?? [])
        for path in result.restored { context.log.line("restored \(path)") }
        for path in result.removed { context.log.line("removed \(path)") }
        if result.restored.isEmpty && result.removed.isEmpty { context.log.line("nothing to reset") }
        return result
    }

    /// `path` relative to `root` (which ends in `/`), with `.` and `..` components resolved.
    static func relative(_ path: String, to root: String) -> String {
        var parts: [Substring] = []
        for part in path.split(separator: "/") {
            switch part {
            case ".": continue
            case "..": _ = parts.popLast()
            default: parts.append(part)
            }
        }
        let normalized = "/" + parts.joined(separator: "/")
        return normalized.hasPrefix(root) ? String(normalized.dropFirst(root.count)) : normalized
    }
}

/// Set by `ensure_git_status_clean` when the working tree was clean: what lets `reset_git_repo`
/// run without `force` (fastlane's lane_context `GIT_REPO_WAS_CLEAN_ON_START`).
public enum GitStatusWasClean: LaneValueKey {
    public typealias Value = Bool
}
