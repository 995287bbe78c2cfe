import LanesGit

/// `reset_git_repo`: undo the edits a lane made to tracked files.
public struct ResetGitRepo: Step {
    public typealias Output = ResetResult

    public static let definition = StepDefinition(
        id: "reset_git_repo",
        summary: "Put tracked files back to HEAD; untracked and ignored files stay unless asked",
        category: .git,
        examples: [
            StepExample(swift: "try await resetGitRepo(files: [\"Brewer.xcodeproj/project.pbxproj\"])",
                        commandLine: ["files:Brewer.xcodeproj/project.pbxproj"]),
            StepExample(swift: "try await resetGitRepo()", commandLine: []),
            StepExample(swift: "try await resetGitRepo(removeUntracked: true)", commandLine: ["remove_untracked:true"]),
        ]
    )

    @StepOption("files", "Only these paths (files or directories); default: every tracked file")
    var files: [String]?
    @StepOption("remove_untracked", "Also delete untracked files (git clean); ignored ones stay", default: false)
    var removeUntracked: Bool
    @StepOption("remove_ignored", "Also delete ignored files such as Pods/ and build output (git clean -X)", default: false)
    var removeIgnored: Bool

    public init() {}

    public func run(in context: StepContext) async throws -> ResetResult {
        let repository = try context.openRepository()
        let root = repository.workingDirectory ?? context.projectDirectory
        // Paths are given relative to the project directory; git wants them relative to the top.
        let paths = files?.map { Self.relative(context.resolve($0), to: root) }
        let result = try repository.resetToHead(paths: paths, removeUntracked: removeUntracked, removeIgnored: removeIgnored)
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
