internal import CGit2

extension Repository {
    /// The branch or commit HEAD points at.
    public func head() throws -> Head {
        var reference: OpaquePointer?
        let code = git_repository_head(&reference, handle)
        if code == GIT_EUNBORNBRANCH.rawValue || code == GIT_ENOTFOUND.rawValue {
            return .unborn(branch: try unbornBranchName())
        }
        try check(code, "reading HEAD of \(displayPath)")
        defer { git_reference_free(reference) }
        var resolved: OpaquePointer?
        try check(git_reference_resolve(&resolved, reference), "resolving HEAD of \(displayPath)")
        defer { git_reference_free(resolved) }
        let commit = ObjectID(git_reference_target(resolved)!)
        if git_repository_head_detached(handle) == 1 {
            return .detached(commit: commit)
        }
        return .branch(name: String(cString: git_reference_shorthand(reference)), commit: commit)
    }

    /// The branch a fresh repository's HEAD names before its first commit.
    private func unbornBranchName() throws -> String {
        var reference: OpaquePointer?
        try check(git_reference_lookup(&reference, handle, "HEAD"), "reading HEAD of \(displayPath)")
        defer { git_reference_free(reference) }
        let target = git_reference_symbolic_target(reference).map { String(cString: $0) } ?? "HEAD"
        let prefix = "refs/heads/"
        return target.hasPrefix(prefix) ? String(target.dropFirst(prefix.count)) : target
    }

    /// The names of the configured remotes.
    public func remoteNames() throws -> [String] {
        var names = git_strarray()
        try check(git_remote_list(&names, handle), "listing the remotes of \(displayPath)")
        return takeStringArray(&names)
    }

    /// The fetch URL of a remote as configured, or nil when there is no such remote.
    ///
    /// The URL may carry credentials (`https://user:token@host/...`): show it to people only
    /// through `URLRedaction.redact`.
    public func remoteURL(named name: String = "origin") throws -> String? {
        var remote: OpaquePointer?
        let code = git_remote_lookup(&remote, handle, name)
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EINVALIDSPEC.rawValue { return nil }
        try check(code, "looking up remote '\(name)'")
        defer { git_remote_free(remote) }
        return git_remote_url(remote).map { String(cString: $0) }
    }
}
