internal import CGit2

extension Repository {
    /// The number of commits reachable from `revision`, as `git rev-list --count` gives it: the
    /// usual build number.
    ///
    /// Throws `.shallowRepository` in a shallow clone, where any count would be wrong.
    public func commitCount(of revision: String = "HEAD") throws -> Int {
        try requireFullHistory(for: "count the commits reachable from \(revision)")
        return try CommitCounter(repository: self).count(from: try resolveCommit(revision))
    }

    /// Commits reachable from `end` but not from `start`, newest first, like
    /// `git log start..end`. A nil `start` takes the whole history reachable from `end`.
    public func changelog(from start: String?, to end: String = "HEAD", merges: MergeFilter = .include,
                          limit: Int? = nil) throws -> [CommitSummary] {
        let endID = try resolveCommit(end)
        let startID = try start.map(resolveCommit)
        var commits: [CommitSummary] = []
        let wantsMore = { limit.map { commits.count < $0 } ?? true }
        if isShallow {
            // libgit2 1.5 stops with "object not found" at a shallow cut-off; walk what is here.
            for id in presentHistory(from: endID, excluding: startID) where wantsMore() {
                let commit = try summary(of: id)
                if merges.keeps(commit) { commits.append(commit) }
            }
            return commits
        }
        let walk = try RevisionWalk(repository: self)
        walk.sortTopologicallyByTime()
        try walk.push(endID)
        if let startID { try walk.hide(startID) }
        while wantsMore(), let id = try walk.next() {
            let commit = try summary(of: id)
            if merges.keeps(commit) { commits.append(commit) }
        }
        return commits
    }

    /// Commits reachable from `end` and not from `excluded`, newest commit time first, skipping
    /// parents the object database does not have (a shallow clone's cut-off).
    func presentHistory(from end: ObjectID, excluding excluded: ObjectID?) -> [ObjectID] {
        let hidden = excluded.map { reachablePresentCommits(from: $0) } ?? [:]
        let visible = reachablePresentCommits(from: end, stoppingAt: hidden)
        return visible.sorted { $0.value > $1.value || ($0.value == $1.value && $0.key.hex < $1.key.hex) }.map(\.key)
    }

    /// Every present commit reachable from `start` with its commit time.
    private func reachablePresentCommits(from start: ObjectID,
                                         stoppingAt boundary: [ObjectID: Int64] = [:]) -> [ObjectID: Int64] {
        var found: [ObjectID: Int64] = [:]
        var pending = [start]
        while let id = pending.popLast() {
            guard found[id] == nil, boundary[id] == nil, let commit = presentCommit(id) else { continue }
            found[id] = commit.time
            pending += commit.parents
        }
        return found
    }

    /// A commit's parents and commit time, or nil when the object is not in this clone.
    func presentCommit(_ id: ObjectID) -> (parents: [ObjectID], time: Int64)? {
        var oid = id.oid
        var commit: OpaquePointer?
        guard git_commit_lookup(&commit, handle, &oid) == 0 else { return nil }
        defer { git_commit_free(commit) }
        let parents = (0..<git_commit_parentcount(commit)).compactMap { git_commit_parent_id(commit, $0).map(ObjectID.init) }
        return (parents, git_commit_time(commit))
    }

    /// The changelog since the last tag reachable from `end` (the whole history when there is no
    /// tag), and that tag.
    public func changelogSinceLastTag(to end: String = "HEAD", pattern: String? = nil,
                                      merges: MergeFilter = .include,
                                      limit: Int? = nil) throws -> (tag: String?, commits: [CommitSummary]) {
        let tag = try lastTag(reachableFrom: end, matching: pattern)
        return (tag, try changelog(from: tag, to: end, merges: merges, limit: limit))
    }

    /// Reads one commit's subject, body, author and parents.
    public func summary(of id: ObjectID) throws -> CommitSummary {
        var oid = id.oid
        var commit: OpaquePointer?
        try check(git_commit_lookup(&commit, handle, &oid), "reading commit \(id.short)")
        defer { git_commit_free(commit) }
        let author = git_commit_author(commit)!.pointee
        let body = git_commit_body(commit).map { String(cString: $0) } ?? ""
        return CommitSummary(
            id: id,
            subject: git_commit_summary(commit).map { String(cString: $0) } ?? "",
            body: body.trimmedWhitespace,
            authorName: String(cString: author.name),
            authorEmail: String(cString: author.email),
            authorDate: GitTime(secondsSince1970: author.when.time, offsetMinutes: Int(author.when.offset)),
            parentCount: Int(git_commit_parentcount(commit))
        )
    }

    func requireFullHistory(for action: String) throws {
        guard isShallow else { return }
        throw GitError(.shallowRepository,
                       "cannot \(action): \(displayPath) is a shallow clone, so its history is cut off and any count would be wrong",
                       hint: "fetch the full history first: git fetch --unshallow (GitHub Actions: actions/checkout with fetch-depth: 0; GitLab CI: GIT_DEPTH: 0)")
    }
}

/// A libgit2 revision walker over one repository.
final class RevisionWalk {
    private let walker: OpaquePointer
    private let repository: Repository

    init(repository: Repository) throws {
        var walker: OpaquePointer?
        try check(git_revwalk_new(&walker, repository.handle), "starting a history walk")
        self.walker = walker!
        self.repository = repository
    }

    deinit { git_revwalk_free(walker) }

    func sortTopologicallyByTime() {
        git_revwalk_sorting(walker, GIT_SORT_TOPOLOGICAL.rawValue | GIT_SORT_TIME.rawValue)
    }

    func push(_ id: ObjectID) throws {
        var oid = id.oid
        try check(git_revwalk_push(walker, &oid), "walking history from \(id.short)")
    }

    func hide(_ id: ObjectID) throws {
        var oid = id.oid
        try check(git_revwalk_hide(walker, &oid), "excluding history of \(id.short)")
    }

    func next() throws -> ObjectID? {
        var oid = git_oid()
        let code = git_revwalk_next(&oid, walker)
        if code == GIT_ITEROVER.rawValue { return nil }
        try check(code, "walking the history of \(repository.displayPath)")
        return ObjectID(oid)
    }
}

extension String {
    /// The text without leading and trailing spaces, tabs and newlines.
    var trimmedWhitespace: String {
        let isBlank: (Character) -> Bool = { $0 == " " || $0 == "\t" || $0 == "\n" || $0 == "\r" }
        guard let first = firstIndex(where: { !isBlank($0) }), let last = lastIndex(where: { !isBlank($0) }) else {
            return ""
        }
        return String(self[first...last])
    }
}
