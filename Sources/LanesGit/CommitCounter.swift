internal import CGit2

/// Counts the commits reachable from a start commit, as `git rev-list --count` does.
///
/// libgit2's revision walk inflates and hashes every whole commit on one core, which makes it
/// about twice as slow as git on a large history. A count needs only each commit's parent
/// lines: for commits stored whole in the repository's packs, those are read straight from the
/// pack — ahead of the walk on all cores (`PackParentTable`) for packs up to `tableLimit`
/// bytes, during the walk for larger ones, whose every page a table would touch.
/// Anything else (loose objects, deltified commits, alternates) is read through libgit2. The
/// tests check the count against git's.
struct CommitCounter {
    /// Packs up to this size get a parent table (1 GiB by default).
    let tableLimit: Int

    private let repository: Repository
    private let packs: [PackFile]

    init(repository: Repository, tableLimit: Int = 1 << 30) {
        self.repository = repository
        self.tableLimit = tableLimit
        packs = PackFile.all(in: repository)
    }

    /// A commit being visited: by pack and index position when a pack has it, else by name.
    private enum Node {
        case packed(pack: Int, position: Int)
        case loose(RawObjectID)
    }

    func count(from start: ObjectID) throws -> Int {
        let tables = packs.map { $0.byteCount <= tableLimit ? PackParentTable(pack: $0) : nil }
        let inflater = HeaderInflater()
        var visited = packs.map { [Bool](repeating: false, count: $0.count) }
        var seenLoose: Set<RawObjectID> = []
        var total = 0
        var pending = [node(for: RawObjectID(start.oid))]
        var parents: [RawObjectID] = []
        while let next = pending.popLast() {
            switch next {
            case .packed(let pack, let position):
                guard !visited[pack][position] else { continue }
                visited[pack][position] = true
                total += 1
                if let table = tables[pack], table.states[position] == .resolved {
                    for parent in [table.first[position], table.second[position]] where parent >= 0 {
                        if !visited[pack][Int(parent)] { pending.append(.packed(pack: pack, position: Int(parent))) }
                    }
                    continue
                }
                if tables[pack] != nil
                    || packs[pack].commitParents(atPosition: position, inflater: inflater, into: &parents) != .commit {
                    try readParentsThroughLibgit2(of: packs[pack].id(at: position), into: &parents)
                }
            case .loose(let id):
                guard seenLoose.insert(id).inserted else { continue }
                total += 1
                try readParentsThroughLibgit2(of: id, into: &parents)
            }
            pending += parents.map(node)
        }
        return total
    }

    /// The same object always maps to the same node: the first pack holding it, else its name.
    private func node(for id: RawObjectID) -> Node {
        for (index, pack) in packs.enumerated() {
            if let position = pack.position(of: id) { return .packed(pack: index, position: position) }
        }
        return .loose(id)
    }

    private func readParentsThroughLibgit2(of id: RawObjectID, into parents: inout [RawObjectID]) throws {
        var oid = id.oid
        var commit: OpaquePointer?
        try check(git_commit_lookup(&commit, repository.handle, &oid),
                  "reading commit \(ObjectID(oid).short) while counting commits in \(repository.displayPath)")
        defer { git_commit_free(commit) }
        parents.removeAll(keepingCapacity: true)
        for index in 0..<git_commit_parentcount(commit) {
            if let parent = git_commit_parent_id(commit, index) { parents.append(RawObjectID(parent.pointee)) }
        }
    }
}
