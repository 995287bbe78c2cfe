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

    public static let between = StepOption<[String]>.optional(
        "between", "Two revisions FROM,TO (default: the last tag reachable from HEAD, and HEAD)")
    public static let mergeCommitFiltering = StepOption<MergeFilter>(
        "merge_commit_filtering", "Which merge commits to list", default: .include)
    public static let commitsCount = StepOption<Int>.optional("commits_count", "List at most this many commits")
    public static let tagMatchPattern = StepOption<String>.optional(
        "tag_match_pattern", "When starting from the last tag, only tags matching this glob count")

    public static let info = StepInfo(
        id: "changelog_from_git_commits",
        summary: "Collect commit subjects, authors and dates since the last tag (or between two revisions)",
        options: [between.info, mergeCommitFiltering.info, commitsCount.info, tagMatchPattern.info],
        examples: [
            StepExample(swift: "let notes = try await changelogFromGitCommits().text", commandLine: []),
            StepExample(swift: "let log = try await changelogFromGitCommits(between: (\"v1.2.0\", \"HEAD\"), mergeCommitFiltering: .exclude)",
                        commandLine: ["between:v1.2.0,HEAD", "merge_commit_filtering:exclude_merges"]),
            StepExample(swift: "let log = try await changelogFromGitCommits(tagMatchPattern: \"v*\", commitsCount: 20)",
                        commandLine: ["tag_match_pattern:v*", "commits_count:20"]),
        ]
    )

    public let between: (from: String, to: String)?
    public let mergeCommitFiltering: MergeFilter
    public let commitsCount: Int?
    public let tagMatchPattern: String?

    public init(between: (from: String, to: String)? = nil, mergeCommitFiltering: MergeFilter = .include,
                commitsCount: Int? = nil, tagMatchPattern: String? = nil) {
        self.between = between
        self.mergeCommitFiltering = mergeCommitFiltering
        self.commitsCount = commitsCount
        self.tagMatchPattern = tagMatchPattern
    }

    public init(options: OptionValues) throws {
        var range: (String, String)?
        if let refs = try options.optional(Self.between) {
            guard refs.count == 2 else {
                throw LanesError(.usage, "option 'between' needs two revisions FROM,TO, got \(refs.count)",
                                 hint: "between:v1.2.0,HEAD")
            }
            range = (refs[0], refs[1])
        }
        self.init(between: range, mergeCommitFiltering: try options[Self.mergeCommitFiltering],
                  commitsCount: try options.optional(Self.commitsCount),
                  tagMatchPattern: try options.optional(Self.tagMatchPattern))
    }

    public func run(in context: StepContext) async throws -> Changelog {
        let repository = try context.openRepository()
        let changelog = try gitStep {
            if let between {
                let commits = try repository.changelog(from: between.from, to: between.to,
                                                       merges: mergeCommitFiltering, limit: commitsCount)
                return Changelog(from: between.from, to: between.to, commits: commits)
            }
            let (tag, commits) = try repository.changelogSinceLastTag(pattern: tagMatchPattern,
                                                                      merges: mergeCommitFiltering, limit: commitsCount)
            return Changelog(from: tag, to: "HEAD", commits: commits)
        }
        context.log.line("\(changelog.commits.count) commits from \(changelog.from ?? "the first commit") to \(changelog.to)")
        for line in changelog.text.split(separator: "\n") { context.log.line(String(line)) }
        return changelog
    }
}

extension ChangelogFromGitCommits {
    /// Names the range this run covers.
    public var banner: String {
        between.map { "changelog \($0.from)..\($0.to)" } ?? "changelog since the last tag"
    }
}

/// The commits since the last tag reachable from HEAD (or between two revisions), newest first.
@discardableResult
public func changelogFromGitCommits(between: (from: String, to: String)? = nil,
                                    mergeCommitFiltering: MergeFilter = .include, commitsCount: Int? = nil,
                                    tagMatchPattern: String? = nil) async throws -> Changelog {
    try await runStep(ChangelogFromGitCommits(between: between, mergeCommitFiltering: mergeCommitFiltering,
                                              commitsCount: commitsCount, tagMatchPattern: tagMatchPattern))
}
