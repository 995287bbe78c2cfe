import LanesGit

/// The commits a release contains, and the text made from them.
public struct Changelog: Sendable, Hashable {
    /// Where the range starts: the ref given, or the last tag; nil for the whole history.
    public let from: String?
    public let to: String
    /// Newest first.
    public let commits: [CommitSummary]

    public init(from: String?, to: String, commits: [CommitSummary]) {
        self.from = from
        self.to = to
        self.commits = commits
    }

    /// One `- subject (author, date)` line per commit, newest first.
    public var text: String {
        commits.map { "- \($0.subject) (\($0.authorName), \($0.authorDate.shortDate))" }.joined(separator: "\n")
    }
}

/// `changelog_from_git_commits`: subjects, authors and dates since the last tag or between refs.
public struct ChangelogFromGitCommits: Step {
    public typealias Output = Changelog

    public static let definition = StepDefinition(
        id: "changelog_from_git_commits",
        summary: "Collect commit subjects, authors and dates since the last tag (or between two revisions)",
        category: .git,
        examples: [
            StepExample(swift: "let notes = try await changelogFromGitCommits().text", commandLine: []),
            StepExample(swift: "let log = try await changelogFromGitCommits(between: [\"v1.2.0\", \"HEAD\"], mergeCommitFiltering: .exclude)",
                        commandLine: ["between:v1.2.0,HEAD", "merge_commit_filtering:exclude_merges"]),
            StepExample(swift: "let log = try await changelogFromGitCommits(commitsCount: 20, tagMatchPattern: \"v*\")",
                        commandLine: ["tag_match_pattern:v*", "commits_count:20"]),
        ]
    )

    @StepOption("between", "Two revisions FROM,TO (default: the last tag reachable from HEAD, and HEAD)")
    var between: [String]?
    @StepOption("merge_commit_filtering", "Which merge commits to list", default: .include)
    var mergeCommitFiltering: MergeFilter
    @StepOption("commits_count", "List at most this many commits")
    var commitsCount: Int?
    @StepOption("tag_match_pattern", "When starting from the last tag, only tags matching this glob count")
    var tagMatchPattern: String?

    public init() {}

    public func run(in context: StepContext) async throws -> Changelog {
        let repository = try context.openRepository()
        let range = try revisionRange()
        let changelog: Changelog
        if let range {
            let commits = try repository.changelog(from: range.from, to: range.to, merges: mergeCommitFiltering, limit: commitsCount)
            changelog = Changelog(from: range.from, to: range.to, commits: commits)
        } else {
            let (tag, commits) = try repository.changelogSinceLastTag(pattern: tagMatchPattern, merges: mergeCommitFiltering,
                                                                      limit: commitsCount)
            changelog = Changelog(from: tag, to: "HEAD", commits: commits)
        }
        context.log.line("\(changelog.commits.count) commits from \(changelog.from ?? "the first commit") to \(changelog.to)")
        for line in changelog.text.split(separator: "\n") { context.log.line(String(line)) }
        return changelog
    }
}

extension ChangelogFromGitCommits {
    /// Names the range this run covers.
    public var banner: String {
        between.map { "changelog \($0.joined(separator: ".."))" } ?? "changelog since the last tag"
    }

    private func revisionRange() throws -> (from: String, to: String)? {
        guard let between else { return nil }
        guard between.count == 2 else {
            throw LanesError(.usage, "option 'between' needs two revisions FROM,TO, got \(between.count)", hint: "between:v1.2.0,HEAD")
        }
        return (between[0], between[1])
    }
}
