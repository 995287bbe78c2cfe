internal import CGit2

/// The most recent tag reachable from a commit, found as `git describe --tags --abbrev=0` finds
/// it (git's builtin/describe.c): the commit's own tag if it has one; else a walk from it, newest
/// committer date first, that takes the first ten tagged commits as candidates, counts for each
/// the commits it does not reach, and stops at the eleventh tagged commit, when the queue runs out,
/// or (once an annotated tag is among them) when the last queued path is covered by the best
/// candidates. The candidate with the fewest such commits wins, the one found first on a tie.
/// With `--abbrev=0` git prints only the name, so its last step, which finishes counting the
/// winner's distance, is not needed.
///
/// libgit2's `git_describe_commit` walks the same way but parses every commit whole; this reads
/// only each commit's header lines from the packs (`CommitReader`), as the commit counter does.
struct LastTagSearch {
    /// Tags git would consider for one commit: annotated beat lightweight, the newer annotated one
    /// beats an older one, otherwise the first by ref name stays.
    struct Name {
        let tag: String
        let annotated: Bool
        let tagObject: RawObjectID?
    }

    private static let seen: UInt32 = 1
    private static let maximumCandidates = 10

    let repository: Repository

    /// The tag name (without `refs/tags/`), or nil when no tag (matching `pattern`) is reachable.
    func lastTag(from start: RawObjectID, matching pattern: String?) throws -> String? {
        let names = try tagNames(matching: pattern)
        guard !names.isEmpty else { return nil }
        if let exact = names[start] { return exact.tag }

        let reader = CommitReader(repository: repository)
        guard let first = reader.commit(start) else { return nil }
        var commits: [RawObjectID: CommitReader.Commit] = [start: first]
        var flags: [RawObjectID: UInt32] = [start: Self.seen]
        var queue = DateQueue()
        queue.insert(start, time: first.time)

        struct Candidate {
            let tag: String
            var depth: Int
            let flag: UInt32
            let order: Int
        }
        var candidates: [Candidate] = []
        var seenCommits = 0
        var annotatedCount = 0
        while let current = queue.pop() {
            seenCommits += 1
            var currentFlags = flags[current, default: 0]
            if let name = names[current] {
                guard candidates.count < Self.maximumCandidates else { break }  // git gives up here
                let flag = UInt32(1) << (candidates.count + 1)
                candidates.append(Candidate(tag: name.tag, depth: seenCommits - 1, flag: flag, order: candidates.count + 1))
                currentFlags |= flag
                flags[current] = currentFlags
                if name.annotated { annotatedCount += 1 }
            }
            for index in candidates.indices where currentFlags & candidates[index].flag == 0 {
                candidates[index].depth += 1
            }
            if annotatedCount > 0, queue.isEmpty {
                // The last remaining path is covered by the best candidate(s): nothing can beat them.
                var bestDepth = Int.max
                var bestFlags: UInt32 = 0
                for candidate in candidates {
                    if candidate.depth < bestDepth {
                        bestDepth = candidate.depth
                        bestFlags = candidate.flag
                    } else if candidate.depth == bestDepth {
                        bestFlags |= candidate.flag
                    }
                }
                if currentFlags & bestFlags == bestFlags { break }
            }
            for parent in commits.removeValue(forKey: current)?.parents ?? [] {
                let parentFlags = flags[parent, default: 0]
                if parentFlags & Self.seen == 0 {
                    // A parent that cannot be read is past a shallow clone's cut-off: git's graft hides it too.
                    guard let commit = reader.commit(parent) else { continue }
                    commits[parent] = commit
                    queue.insert(parent, time: commit.time)
                }
                flags[parent] = parentFlags | currentFlags
            }
        }
        return candidates.min { ($0.depth, $0.order) < ($1.depth, $1.order) }?.tag
    }

    /// Every tag under `refs/tags/` that matches `pattern`, by the commit it peels to. Refs are read
    /// in name order, as git iterates them.
    func tagNames(matching pattern: String?) throws -> [RawObjectID: Name] {
        var list = git_strarray()
        try check(git_reference_list(&list, repository.handle), "listing the tags of \(repository.displayPath)")
        let references = takeStringArray(&list).filter { $0.hasPrefix("refs/tags/") }
            .sorted { Array($0.utf8).lexicographicallyPrecedes(Array($1.utf8)) }
        var names: [RawObjectID: Name] = [:]
        var tagTimes: [RawObjectID: Int64?] = [:]
        func tagTime(_ id: RawObjectID) -> Int64? {
            if let known = tagTimes[id] { return known }
            var oid = id.oid
            var tag: OpaquePointer?
            var time: Int64?
            if git_tag_lookup(&tag, repository.handle, &oid) == 0 {
                time = git_tag_tagger(tag).map { $0.pointee.when.time } ?? 0
                git_tag_free(tag)
            }
            tagTimes[id] = time
            return time
        }
        for reference in references {
            let tag = String(reference.dropFirst("refs/tags/".count))
            if let pattern, !globMatches(tag, pattern) { continue }
            var target = git_oid()
            guard git_reference_name_to_id(&target, repository.handle, reference) == 0 else { continue }
            var object: OpaquePointer?
            guard git_object_lookup(&object, repository.handle, &target, GIT_OBJECT_ANY) == 0 else { continue }
            defer { git_object_free(object) }
            var commit: OpaquePointer?
            guard git_object_peel(&commit, object, GIT_OBJECT_COMMIT) == 0 else { continue }
            let peeled = RawObjectID(git_object_id(commit).pointee)
            git_object_free(commit)
            let annotated = git_object_type(object) == GIT_OBJECT_TAG
            let name = Name(tag: tag, annotated: annotated, tagObject: annotated ? RawObjectID(target) : nil)
            guard let existing = names[peeled] else {
                names[peeled] = name
                continue
            }
            if annotated && !existing.annotated {
                names[peeled] = name
            } else if annotated, existing.annotated, let old = existing.tagObject, let new = name.tagObject {
                // Two annotated tags on one commit: the newer tagger date wins (an unreadable old one loses).
                guard let oldTime = tagTime(old) else { names[peeled] = name; continue }
                if let newTime = tagTime(new), oldTime < newTime { names[peeled] = name }
            }
        }
        return names
    }
}

/// Commits by committer date, newest first; among equal dates the one queued first, as git's
/// `commit_list_insert_by_date` keeps them.
struct DateQueue {
    private var heap: [(time: Int64, order: Int, id: RawObjectID)] = []
    private var inserted = 0

    var isEmpty: Bool { heap.isEmpty }

    private func before(_ left: Int, _ right: Int) -> Bool {
        heap[left].time != heap[right].time ? heap[left].time > heap[right].time : heap[left].order < heap[right].order
    }

    mutating func insert(_ id: RawObjectID, time: Int64) {
        heap.append((time, inserted, id))
        inserted += 1
        var child = heap.count - 1
        while child > 0 {
            let parent = (child - 1) / 2
            guard before(child, parent) else { break }
            heap.swapAt(child, parent)
            child = parent
        }
    }

    mutating func pop() -> RawObjectID? {
        guard !heap.isEmpty else { return nil }
        heap.swapAt(0, heap.count - 1)
        let top = heap.removeLast()
        var parent = 0
        while true {
            let left = parent * 2 + 1
            let right = left + 1
            var first = parent
            if left < heap.count, before(left, first) { first = left }
            if right < heap.count, before(right, first) { first = right }
            guard first != parent else { break }
            heap.swapAt(parent, first)
            parent = first
        }
        return top.id
    }
}

/// Parents and committer times of commits: read from the packs' index and the first lines of each
/// commit stored whole there, else (loose objects, deltas, alternates) through libgit2.
final class CommitReader {
    struct Commit {
        let parents: [RawObjectID]
        let time: Int64
    }

    private let repository: Repository
    private let packs: [PackFile]
    private let inflater = HeaderInflater()
    private var parents: [RawObjectID] = []

    init(repository: Repository) {
        self.repository = repository
        packs = PackFile.all(in: repository)
    }

    /// The commit, or nil when the repository does not have it (a shallow clone's cut-off).
    func commit(_ id: RawObjectID) -> Commit? {
        for pack in packs {
            guard let position = pack.position(of: id) else { continue }
            var time: Int64 = 0
            switch pack.commitParentsAndTime(atPosition: position, inflater: inflater, into: &parents, time: &time) {
            case .commit: return Commit(parents: parents, time: time)
            case .otherObject: return nil
            case .unknown: break
            }
            break
        }
        var oid = id.oid
        var commit: OpaquePointer?
        guard git_commit_lookup(&commit, repository.handle, &oid) == 0 else { return nil }
        defer { git_commit_free(commit) }
        let parents = (0..<git_commit_parentcount(commit)).compactMap { git_commit_parent_id(commit, $0).map { RawObjectID($0.pointee) } }
        return Commit(parents: parents, time: git_commit_time(commit))
    }
}
