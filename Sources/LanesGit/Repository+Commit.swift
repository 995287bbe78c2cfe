internal import CGit2
internal import LanesPlatform

extension Repository {
    /// Stages `paths` (relative to the working tree; a path deleted from disk is removed from the
    /// index; a folder or glob stages the tracked files it covers) and commits them with `message` on the current branch, as `git add PATHS && git commit`
    /// would with the configured identity. Returns the new commit, or nil when the paths hold no
    /// change (the caller decides whether "nothing to commit" is an error).
    public func commit(paths: [String], message: String) throws -> ObjectID? {
        let workingDirectory = try requireWorkingDirectory(for: "commit")
        guard !paths.isEmpty else { throw GitError(.invalidArgument, "no paths to commit") }
        var index: OpaquePointer?
        try check(git_repository_index(&index, handle), "opening the index of \(displayPath)")
        defer { git_index_free(index) }
        for path in paths {
            let relative = Self.relativePath(path, to: workingDirectory)
            // A folder (the working tree's top too) or a glob is a pathspec, as `git commit PATHSPEC`
            // (fastlane's git_commit) takes it: the changes of the tracked files it covers, deletions
            // included; files git does not track stay untracked.
            if let spec = Self.pathspec(relative, absolute: path) {
                try withStringArray(spec.map { [$0] } ?? []) { array in
                    try check(git_index_update_all(index, &array, nil, nil), "staging the tracked files of \(spec ?? ".")")
                }
                continue
            }
            var code = git_index_add_bypath(index, relative)
            // A file deleted from the working tree leaves the index, as `git add` does it.
            if code == GIT_ENOTFOUND.rawValue, git_index_get_bypath(index, relative, 0) != nil {
                code = git_index_remove_bypath(index, relative)
            }
            if code == GIT_ENOTFOUND.rawValue {
                throw GitError(.notFound, "\(relative) does not exist in \(displayPath)")
            }
            try check(code, "staging \(relative)")
        }
        try check(git_index_write(index), "writing the index of \(displayPath)")
        var tree = git_oid()
        try check(git_index_write_tree(&tree, index), "writing the tree to commit")

        var parent: OpaquePointer?
        var parentTree = git_oid()
        let headCode = git_revparse_single(&parent, handle, "HEAD^{commit}")
        defer { if parent != nil { git_object_free(parent) } }
        if headCode == 0, let parent {
            git_oid_cpy(&parentTree, git_commit_tree_id(parent))
            if git_oid_equal(&parentTree, &tree) == 1 { return nil }
        }
        var author: UnsafeMutablePointer<git_signature>?
        guard git_signature_default(&author, handle) == 0 else {
            throw GitError(.invalidArgument, "cannot commit: no author identity configured in \(displayPath)",
                           hint: "git config user.name \"CI\" && git config user.email ci@example.com")
        }
        defer { git_signature_free(author) }
        var treeObject: OpaquePointer?
        try check(git_tree_lookup(&treeObject, handle, &tree), "reading the tree to commit")
        defer { git_tree_free(treeObject) }
        var id = git_oid()
        let code: Int32
        if let parent {
            var parents: [OpaquePointer?] = [parent]
            code = git_commit_create(&id, handle, "HEAD", author, author, nil, message, treeObject, 1, &parents)
        } else {
            code = git_commit_create(&id, handle, "HEAD", author, author, nil, message, treeObject, 0, nil)
        }
        try check(code, "committing \(paths.count) path\(paths.count == 1 ? "" : "s")")
        return ObjectID(id)
    }

    /// The paths the working tree changed (modified, added, deleted; untracked included), relative
    /// to the working tree.
    public func changedPaths() throws -> [String] {
        try status(StatusOptions(listFilesInUntrackedDirectories: true)).entries.map(\.path)
    }

    /// Pushes `localBranch` (default: the branch checked out) to `remoteBranch` (default: the same
    /// name) on `remote`. Without `force`, the remote refuses a push that is not a fast-forward.
    public func pushBranch(_ localBranch: String? = nil, to remote: String = "origin", remoteBranch: String? = nil,
                           force: Bool = false, credentials: RemoteCredentials = .none) throws -> (local: String, remote: String) {
        let local = try localBranch ?? currentBranch(for: "push")
        let target = remoteBranch ?? local
        _ = try resolveCommit("refs/heads/\(local)")
        let refspec = "\(force ? "+" : "")refs/heads/\(local):refs/heads/\(target)"
        try withRemote(remote, credentials: credentials) { handle, isNamed, session in
            var options = git_push_options()
            git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION))
            options.callbacks = session.callbacks()
            let action = "pushing \(local) to \(target) on \(remote)"
            let code = withStringArray([refspec]) { git_remote_push(handle, &$0, &options) }
            guard code == 0 else { throw session.error(code: code, while: action) }
            if !session.rejectedReferences.isEmpty {
                let reasons = session.rejectedReferences.map { "\($0.reference): \($0.reason)" }.joined(separator: "; ")
                throw GitError(.pushRejected, credentials.redact("\(action): the remote rejected \(reasons)"),
                               hint: "pull the remote's commits first, or push with force")
            }
        }
        return (local, target)
    }

    /// `path` relative to `workingDirectory` (which ends in a slash) when it lies inside it.
    /// The pathspec `relative` is when it names a folder or holds a glob character: `.some(nil)`
    /// for the whole working tree, nil when it is a plain file path.
    static func pathspec(_ relative: String, absolute: String) -> String?? {
        var spec = Substring(relative)
        while spec.hasSuffix("/.") { spec = spec.dropLast(2) }
        while spec.hasSuffix("/") { spec = spec.dropLast() }
        if spec.isEmpty || spec == "." { return .some(nil) }
        guard spec.contains(where: { "*?[".contains($0) }) || FilePath.isDirectory(absolute) else { return nil }
        return .some(String(spec))
    }

    /// `path` relative to the working tree, without the `./` segments git reads as nothing
    /// (`git commit ./*` is `*`, MapGL-iOS's git_commit); libgit2's index and pathspecs keep them.
    public static func relativePath(_ path: String, to workingDirectory: String) -> String {
        var relative = path.hasPrefix(workingDirectory) ? String(path.dropFirst(workingDirectory.count)) : path
        while relative.contains("/./") { relative = relative.replacing("/./", with: "/") }
        while relative.hasPrefix("./") { relative.removeFirst(2) }
        return relative
    }
}

extension Repository {
    /// What `pullFastForward` did.
    public enum PullOutcome: Sendable, Equatable {
        case upToDate(ObjectID)
        case fastForwarded(from: ObjectID, to: ObjectID)
    }

    /// Fetches the checked-out branch from `remote` and fast-forwards it, working tree included
    /// (`git pull --ff-only`). A branch that has diverged, or local changes the new commits would
    /// overwrite, stop it with nothing changed.
    public func pullFastForward(remote: String = "origin", credentials: RemoteCredentials = .none) throws -> PullOutcome {
        _ = try requireWorkingDirectory(for: "pull")
        let branch = try currentBranch(for: "pull")
        let local = try resolveCommit("HEAD")
        let tip = try fetch(remote: remote, branch: branch, credentials: credentials)
        if tip == local { return .upToDate(local) }
        var localOID = local.oid, tipOID = tip.oid
        if git_graph_descendant_of(handle, &localOID, &tipOID) == 1 { return .upToDate(local) }
        guard git_graph_descendant_of(handle, &tipOID, &localOID) == 1 else {
            throw GitError(.pushRejected, credentials.redact("cannot fast-forward \(branch): it and \(remote)'s \(branch) have diverged"),
                           hint: "merge or rebase by hand (git pull --rebase), then run the lane again")
        }
        var target: OpaquePointer?
        try check(git_object_lookup(&target, handle, &tipOID, GIT_OBJECT_COMMIT), "reading \(tip.short)")
        defer { git_object_free(target) }
        var checkout = git_checkout_options()
        git_checkout_options_init(&checkout, UInt32(GIT_CHECKOUT_OPTIONS_VERSION))
        checkout.checkout_strategy = GIT_CHECKOUT_SAFE.rawValue
        let code = git_checkout_tree(handle, target, &checkout)
        if code == GIT_ECONFLICT.rawValue {
            throw GitError(.invalidArgument, "cannot fast-forward \(branch): local changes would be overwritten",
                           hint: "commit or reset them first (reset_git_repo)")
        }
        try check(code, "checking out \(tip.short)")
        var reference: OpaquePointer?
        try check(git_reference_lookup(&reference, handle, "refs/heads/\(branch)"), "reading branch \(branch)")
        defer { git_reference_free(reference) }
        var updated: OpaquePointer?
        try check(git_reference_set_target(&updated, reference, &tipOID, "pull: fast-forward"), "moving \(branch) to \(tip.short)")
        git_reference_free(updated)
        return .fastForwarded(from: local, to: tip)
    }
}
