/// The facts `lanes git info` prints: where HEAD is, the build number, the last tag, and
/// whether the working tree is clean.
public struct RepositoryInfo: Sendable, Hashable, Codable {
    /// The top of the working tree.
    public let root: String
    /// The branch checked out; nil when HEAD is detached.
    public let branch: String?
    /// The commit HEAD points at; nil before the first commit.
    public let commit: ObjectID?
    /// Commits reachable from HEAD; nil in a shallow clone (which cannot count) or before the
    /// first commit.
    public let commitCount: Int?
    public let shallow: Bool
    /// The most recent tag reachable from HEAD; nil when none is.
    public let lastTag: String?
    /// The fetch URL of `origin`, credentials masked; nil without such a remote.
    public let remoteURL: String?
    /// No staged, unstaged or untracked (non-ignored) changes.
    public let clean: Bool
    /// The changed paths; an untracked directory is listed once, ending in `/`.
    public let changedFiles: [String]

    public init(root: String, branch: String?, commit: ObjectID?, commitCount: Int?, shallow: Bool,
                lastTag: String?, remoteURL: String?, clean: Bool, changedFiles: [String]) {
        self.root = root
        self.branch = branch
        self.commit = commit
        self.commitCount = commitCount
        self.shallow = shallow
        self.lastTag = lastTag
        self.remoteURL = remoteURL
        self.clean = clean
        self.changedFiles = changedFiles
    }

    private enum CodingKeys: String, CodingKey {
        case root, branch, commit, commitCount, shallow, lastTag, remoteURL, clean, changedFiles
    }

    /// Writes absent values as `null` rather than leaving the key out, so readers can rely on
    /// every key being present.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(root, forKey: .root)
        try container.encode(branch, forKey: .branch)
        try container.encode(commit, forKey: .commit)
        try container.encode(commitCount, forKey: .commitCount)
        try container.encode(shallow, forKey: .shallow)
        try container.encode(lastTag, forKey: .lastTag)
        try container.encode(remoteURL, forKey: .remoteURL)
        try container.encode(clean, forKey: .clean)
        try container.encode(changedFiles, forKey: .changedFiles)
    }
}

extension Repository {
    /// Gathers `RepositoryInfo`. Submodules are checked too unless `statusOptions` says not.
    public func info(statusOptions: StatusOptions = StatusOptions()) throws -> RepositoryInfo {
        let head = try head()
        let status = try status(statusOptions)
        let countable = !isShallow && head.commit != nil
        return RepositoryInfo(
            root: try requireWorkingDirectory(for: "describe the working tree"),
            branch: head.isDetached ? nil : head.branchName,
            commit: head.commit,
            commitCount: countable ? try commitCount() : nil,
            shallow: isShallow,
            lastTag: head.commit == nil ? nil : try lastTag(),
            remoteURL: try remoteURL().map(URLRedaction.redact),
            clean: status.isClean,
            changedFiles: status.changedPaths
        )
    }
}
