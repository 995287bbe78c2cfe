internal import CGit2

extension Repository {
    /// Fetches `branch` from `remote` (a configured remote's name, a path or a URL) and returns
    /// its tip there. A named remote's tracking ref (`refs/remotes/<remote>/<branch>`) is updated.
    ///
    /// - Parameter branch: defaults to the branch checked out here.
    /// - Parameter shouldStop: asked during the transfer; true aborts it (see `RemoteSession`).
    @discardableResult
    public func fetch(remote: String = "origin", branch: String? = nil,
                      credentials: RemoteCredentials = .none, shouldStop: @escaping @Sendable () -> Bool = { false }) throws -> ObjectID {
        let branch = try branch ?? currentBranch(for: "fetch")
        return try withRemote(remote, credentials: credentials, shouldStop: shouldStop) { handle, isNamed, session in
            let source = "refs/heads/\(branch)"
            let refspec = isNamed ? "+\(source):refs/remotes/\(remote)/\(branch)" : source
            var options = git_fetch_options()
            git_fetch_options_init(&options, UInt32(GIT_FETCH_OPTIONS_VERSION))
            options.callbacks = session.callbacks()
            options.download_tags = GIT_REMOTE_DOWNLOAD_TAGS_NONE
            let action = "fetching \(branch) from \(remote)"
            let code = withStringArray(credentials.httpHeaders) { headers in
                options.custom_headers = headers
                return withStringArray([refspec]) { git_remote_fetch(handle, &$0, &options, nil) }
            }
            guard code == 0 else { throw session.error(code: code, while: action) }
            let heads = try remoteHeads(handle, action: action)
            guard let tip = heads[source] else {
                let branches = heads.keys.filter { $0.hasPrefix("refs/heads/") }.map { $0.dropFirst(11) }.sorted()
                throw GitError(.notFound, credentials.redact("branch \(branch) does not exist on remote \(remote)"),
                               hint: "the remote's branches: \(branches.prefix(10).joined(separator: ", "))", missingRemoteBranch: branch)
            }
            return tip
        }
    }

    /// Fetches `branch` and tells whether its tip moved since `since` — or, when `since` is nil,
    /// since the remote-tracking ref as it was before this fetch. The poll-SCM check.
    public func poll(remote: String = "origin", branch: String? = nil, since: ObjectID? = nil,
                     credentials: RemoteCredentials = .none, shouldStop: @escaping @Sendable () -> Bool = { false }) throws -> PollResult {
        let branch = try branch ?? currentBranch(for: "poll")
        let previous = since ?? (try? resolveCommit("refs/remotes/\(remote)/\(branch)"))
        let tip = try fetch(remote: remote, branch: branch, credentials: credentials, shouldStop: shouldStop)
        return PollResult(remote: credentials.redact(remote), branch: branch, commit: tip, previous: previous)
    }

    /// Pushes tags to `remote`: the ones named, or every tag. Existing tags on the remote are
    /// replaced only with `force`. Returns the tags pushed.
    @discardableResult
    public func pushTags(_ names: [String]? = nil, to remote: String = "origin", force: Bool = false,
                         credentials: RemoteCredentials = .none, shouldStop: @escaping @Sendable () -> Bool = { false }) throws -> [String] {
        let tags = try names ?? tags().map(\.name)
        for name in tags where try tag(named: name) == nil {
            throw GitError(.notFound, "tag \(name) does not exist in \(displayPath)", hint: "create it first (add_git_tag)")
        }
        guard !tags.isEmpty else { return [] }
        let refspecs = tags.map { "\(force ? "+" : "")refs/tags/\($0):refs/tags/\($0)" }
        try withRemote(remote, credentials: credentials, shouldStop: shouldStop) { handle, _, session in
            if !force {
                let clashes = try tagsMovedOnRemote(tags, remote: handle, session: session, name: remote)
                guard clashes.isEmpty else {
                    throw GitError(.pushRejected,
                                   credentials.redact("cannot push to \(remote): tag \(clashes.joined(separator: ", ")) already exists there and points elsewhere"),
                                   hint: "choose a new tag name, or push with force to move it")
                }
            }
            var options = git_push_options()
            git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION))
            options.callbacks = session.callbacks()
            let action = "pushing \(tags.count == 1 ? "tag \(tags[0])" : "\(tags.count) tags") to \(remote)"
            let code = withStringArray(refspecs) { git_remote_push(handle, &$0, &options) }
            guard code == 0 else { throw session.error(code: code, while: action) }
            if !session.rejectedReferences.isEmpty {
                let reasons = session.rejectedReferences.map { "\($0.reference): \($0.reason)" }.joined(separator: "; ")
                throw GitError(.pushRejected, credentials.redact("\(action): the remote rejected \(reasons)"),
                               hint: "a tag of the same name already exists there; choose a new name, or push with force")
            }
        }
        return tags
    }

    /// The tags among `tags` that the remote already has at another object. git servers refuse
    /// to move a tag without force; libgit2's local transport would not, so lanes checks itself.
    private func tagsMovedOnRemote(_ tags: [String], remote: OpaquePointer, session: RemoteSession,
                                   name: String) throws -> [String] {
        var callbacks = session.callbacks()
        let code = git_remote_connect(remote, GIT_DIRECTION_PUSH, &callbacks, nil, nil)
        guard code == 0 else { throw session.error(code: code, while: "connecting to \(name)") }
        defer { git_remote_disconnect(remote) }
        let heads = try remoteHeads(remote, action: "listing the tags of \(name)")
        return try tags.filter { tag in
            guard let theirs = heads["refs/tags/\(tag)"] else { return false }
            var oid = git_oid()
            try check(git_reference_name_to_id(&oid, handle, "refs/tags/\(tag)"), "reading tag \(tag)")
            return ObjectID(oid) != theirs
        }
    }

    /// The branch checked out, or an error naming what needs a branch.
    func currentBranch(for action: String) throws -> String {
        guard let name = try head().branchName else {
            throw GitError(.invalidArgument, "cannot \(action) without a branch: HEAD of \(displayPath) is detached",
                           hint: "name the branch to \(action) explicitly")
        }
        return name
    }

    /// Looks up a configured remote, or makes an anonymous one for a path or URL, and lends it.
    func withRemote<T>(_ remote: String, credentials: RemoteCredentials, shouldStop: @escaping @Sendable () -> Bool = { false },
                               _ body: (OpaquePointer, Bool, RemoteSession) throws -> T) throws -> T {
        var handle: OpaquePointer?
        var isNamed = true
        var code = git_remote_lookup(&handle, self.handle, remote)
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EINVALIDSPEC.rawValue, remote.contains("/") || remote.contains(":") {
            isNamed = false
            code = git_remote_create_anonymous(&handle, self.handle, remote)
        }
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EINVALIDSPEC.rawValue {
            let known = (try? remoteNames()) ?? []
            throw GitError(.notFound, "no remote named '\(credentials.redact(remote))' in \(displayPath)",
                           hint: known.isEmpty ? "add one: git remote add origin URL" : "remotes: \(known.joined(separator: ", "))")
        }
        guard code == 0, let handle else {
            throw GitError.lastError(code: code, while: "opening remote \(credentials.redact(remote))", redacting: credentials.redact)
        }
        defer { git_remote_free(handle) }
        let session = RemoteSession(credentials: credentials, shouldStop: shouldStop)
        return try withExtendedLifetime(session) { try body(handle, isNamed, session) }
    }

    /// The refs the remote advertised in the last connection, by name.
    func remoteHeads(_ remote: OpaquePointer, action: String) throws -> [String: ObjectID] {
        var heads: UnsafeMutablePointer<UnsafePointer<git_remote_head>?>?
        var count = 0
        try check(git_remote_ls(&heads, &count, remote), action)
        var result: [String: ObjectID] = [:]
        for index in 0..<count {
            guard let head = heads?[index]?.pointee else { continue }
            result[String(cString: head.name)] = ObjectID(head.oid)
        }
        return result
    }
}
