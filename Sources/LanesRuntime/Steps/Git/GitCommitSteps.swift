import LanesGit

/// A commit as a lane sees it.
public struct GitCommitInfo: Sendable, Hashable, CustomStringConvertible {
    /// The full object name.
    public let commitHash: String
    public let abbreviatedCommitHash: String
    /// The whole message: subject, then the body when there is one.
    public let message: String
    public let author: String
    public let authorEmail: String

    public var description: String { "\(abbreviatedCommitHash) \(message.split(separator: "\n").first ?? "")" }

    init(_ summary: CommitSummary) {
        commitHash = summary.id.hex
        abbreviatedCommitHash = summary.id.short
        message = summary.body.isEmpty ? summary.subject : summary.subject + "\n\n" + summary.body
        author = summary.authorName
        authorEmail = summary.authorEmail
    }
}

/// `git_commit`: stage paths and commit them (libgit2; the identity from git config).
public struct GitCommit: Step {
    public typealias Output = String?

    public static let definition = StepDefinition(
        id: "git_commit",
        summary: "Stage the given paths and commit them on the current branch; returns the new commit (nil when nothing changed)",
        category: .git,
        examples: [StepExample(swift: #"try await gitCommit(path: ["CHANGELOG.md", "Brewer/Info.plist"], message: "Release 1.4.0")"#,
                               commandLine: ["path:CHANGELOG.md,Brewer/Info.plist", "message:Release 1.4.0"])]
    )

    @StepOption("path", "Files to stage and commit, relative to the Lanefile; a folder (such as .) or a glob commits its tracked files' changes, as git commit's pathspecs")
    var path: [String]
    @StepOption("message", "The commit message")
    var message: String
    @StepOption("allow_nothing_to_commit", "Succeed without a commit when the paths hold no change", default: false)
    var allowNothingToCommit: Bool

    public init() {}

    public func run(in context: StepContext) async throws -> String? {
        let repository = try context.openRepository()
        guard let id = try repository.commit(paths: path.map(context.resolve), message: message) else {
            guard allowNothingToCommit else {
                throw LanesError(.laneFailure, "git_commit: nothing to commit in \(path.joined(separator: ", "))",
                                 hint: "pass allow_nothing_to_commit:true when that is expected")
            }
            context.log.line("nothing to commit")
            return nil
        }
        context.log.line("committed \(id.short): \(message.split(separator: "\n").first ?? "")")
        return id.hex
    }
}

/// `commit_version_bump`: commits what a version step changed (the project file and Info.plists).
public struct CommitVersionBump: Step {
    public typealias Output = String

    public static let definition = StepDefinition(
        id: "commit_version_bump",
        summary: "Commit the version change (project.pbxproj and Info.plist files); fails when other files changed, unless force",
        category: .git,
        examples: [StepExample(swift: #"try await commitVersionBump(message: "Version bump to 1.5.0")"#,
                               commandLine: ["message:Version bump to 1.5.0"])]
    )

    @StepOption("message", "The commit message", default: "Version Bump")
    var message: String
    @StepOption("xcodeproj", "Only commit changes inside this .xcodeproj and the Info.plists (default: any)")
    var xcodeproj: String?
    @StepOption("force", "Also commit other changed files instead of failing", default: false)
    var force: Bool

    public init() {}

    public func run(in context: StepContext) async throws -> String {
        let repository = try context.openRepository()
        let root = repository.workingDirectory ?? context.projectDirectory + "/"
        let project = xcodeproj.map { Repository.relativePath(context.resolve($0), to: root) }
        let changed = try repository.changedPaths()
        let isVersionFile = { (path: String) -> Bool in
            path.hasSuffix(".plist") || (path.hasSuffix("project.pbxproj") && (project.map { path.hasPrefix($0) } ?? true))
        }
        let versionFiles = changed.filter(isVersionFile)
        let others = changed.filter { !isVersionFile($0) }
        guard !versionFiles.isEmpty else {
            throw LanesError(.laneFailure, "commit_version_bump: no changed project.pbxproj or Info.plist to commit",
                             hint: "run increment_version_number or increment_build_number first")
        }
        guard others.isEmpty || force else {
            throw LanesError(.laneFailure, "commit_version_bump: other files changed too: \(others.prefix(20).joined(separator: ", "))",
                             hint: "commit or reset them first, or pass force:true to commit them as well")
        }
        let paths = (force ? changed : versionFiles).map { root + $0 }
        guard let id = try repository.commit(paths: paths, message: message) else {
            throw LanesError(.laneFailure, "commit_version_bump: nothing to commit")
        }
        context.log.line("committed \(id.short) (\(paths.count) file\(paths.count == 1 ? "" : "s")): \(message)")
        return id.hex
    }
}

/// `push_to_git_remote`: push the branch (and tags) to a remote.
public struct PushToGitRemote: Step {
    public static let definition = StepDefinition(
        id: "push_to_git_remote",
        summary: "Push the current branch (and its tags) to a remote (https token: LANES_GIT_TOKEN; ssh key: LANES_GIT_SSH_KEY)",
        category: .git,
        examples: [StepExample(swift: "try await pushToGitRemote()", commandLine: [], environment: [RemoteCredentials.Variable.token]),
                   StepExample(swift: #"try await pushToGitRemote(remote: "upstream", localBranch: "main", remoteBranch: "release", tags: false)"#,
                               commandLine: ["remote:upstream", "local_branch:main", "remote_branch:release", "tags:false"])]
    )

    @StepOption("remote", "The remote's name (or URL or path)", default: "origin")
    var remote: String
    @StepOption("local_branch", "The branch to push (default: the one checked out)")
    var localBranch: String?
    @StepOption("remote_branch", "The branch on the remote (default: the same name)")
    var remoteBranch: String?
    @StepOption("force", "Push even when it is not a fast-forward", default: false)
    var force: Bool
    @StepOption("tags", "Also push the tags", default: true)
    var tags: Bool

    public init() {}

    public func run(in context: StepContext) async throws {
        let repository = try context.openRepository()
        let credentials = context.remoteCredentials()
        let pushed = try repository.pushBranch(localBranch, to: remote, remoteBranch: remoteBranch, force: force, credentials: credentials)
        context.log.line("pushed \(pushed.local) to \(pushed.remote) on \(URLRedaction.redact(remote))")
        if tags {
            let names = try repository.pushTags(to: remote, credentials: credentials)
            if !names.isEmpty { context.log.line("pushed tags \(names.joined(separator: ", "))") }
        }
    }
}

/// `ensure_git_branch`: refuse to run on another branch.
public struct EnsureGitBranch: Step {
    public static let definition = StepDefinition(
        id: "ensure_git_branch",
        summary: "Fail unless the branch (or the one CI reports for a detached HEAD) matches a regular expression",
        category: .git,
        examples: [StepExample(swift: #"try await ensureGitBranch(branch: "^(main|release/.*)$")"#, commandLine: ["branch:^(main|release/.*)$"])]
    )

    @StepOption("branch", "Regular expression the whole branch name must match", default: "master|main")
    var branch: String

    public init() {}

    public func run(in context: StepContext) async throws {
        let pattern: Regex<AnyRegexOutput>
        do { pattern = try Regex(branch) } catch {
            throw LanesError(.usage, "ensure_git_branch: branch '\(branch)' is not a regular expression: \(error)")
        }
        let current = try GitBranch().detect(in: context)
        guard let current, (try? pattern.wholeMatch(in: current)) != nil else {
            throw LanesError(.laneFailure, "ensure_git_branch: on branch \(current ?? "(detached HEAD)"), which does not match '\(branch)'",
                             hint: "check out a matching branch, or change the pattern")
        }
        context.log.line("branch \(current) matches \(branch)")
    }
}

/// `last_git_commit`: the commit HEAD points at.
public struct LastGitCommit: Step {
    public typealias Output = GitCommitInfo

    public static let definition = StepDefinition(
        id: "last_git_commit",
        summary: "The commit HEAD points at: hash, message and author",
        category: .git,
        examples: [StepExample(swift: "let commit = try await lastGitCommit()", commandLine: [])]
    )

    public init() {}

    public func run(in context: StepContext) async throws -> GitCommitInfo {
        let repository = try context.openRepository()
        let commit = GitCommitInfo(try repository.summary(of: try repository.resolveCommit("HEAD")))
        context.log.line("\(commit)")
        return commit
    }
}

extension GitCommitInfo: ReportableResult {
    public var report: StepResultReport {
        StepResultReport(lines: ["\(self)"], json: .object([("commit", .string(commitHash)), ("message", .string(message)),
                                                            ("author", .string(author))]))
    }
}

/// `git_pull`: fast-forward the checked-out branch from its remote.
public struct GitPull: Step {
    public typealias Output = String

    public static let definition = StepDefinition(
        id: "git_pull",
        summary: "Fetch the branch from a remote and fast-forward it (git pull --ff-only); returns the new HEAD",
        category: .git,
        examples: [StepExample(swift: "try await gitPull()", commandLine: [], environment: [RemoteCredentials.Variable.token])]
    )

    @StepOption("remote", "The remote's name (or URL or path)", default: "origin")
    var remote: String

    public init() {}

    public func run(in context: StepContext) async throws -> String {
        let repository = try context.openRepository()
        switch try repository.pullFastForward(remote: remote, credentials: context.remoteCredentials()) {
        case .upToDate(let head):
            context.log.line("already up to date at \(head.short)")
            return head.hex
        case .fastForwarded(let from, let to):
            context.log.line("fast-forwarded \(from.short)..\(to.short) from \(URLRedaction.redact(remote))")
            return to.hex
        }
    }
}
