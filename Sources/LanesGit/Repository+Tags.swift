internal import CGit2

extension Repository {
    /// Every tag that points (directly or through an annotation) at a commit, sorted by name.
    public func tags() throws -> [GitTag] {
        var names = git_strarray()
        try check(git_tag_list(&names, handle), "listing the tags of \(displayPath)")
        return try takeStringArray(&names).sorted().compactMap { try tag(named: $0) }
    }

    /// The tag `name`, or nil when it does not exist or does not point at a commit.
    public func tag(named name: String) throws -> GitTag? {
        var object: OpaquePointer?
        let code = git_revparse_single(&object, handle, "refs/tags/\(name)")
        if code == GIT_ENOTFOUND.rawValue || code == GIT_EINVALIDSPEC.rawValue { return nil }
        try check(code, "reading tag \(name)")
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        guard git_object_peel(&commit, object, GIT_OBJECT_COMMIT) == 0 else { return nil }
        defer { git_object_free(commit) }
        let isAnnotated = git_object_type(object) == GIT_OBJECT_TAG
        let message = isAnnotated ? git_tag_message(object).map { String(cString: $0).trimmedWhitespace } : nil
        return GitTag(name: name, commit: ObjectID(git_object_id(commit)), isAnnotated: isAnnotated, message: message)
    }

    /// The most recent tag reachable from `revision`, as `git describe --tags --abbrev=0` finds
    /// it (lightweight tags included; `LastTagSearch`); nil when no tag is reachable. In a shallow
    /// clone the walk ends at the cut-off, as git's does.
    ///
    /// - Parameter pattern: a glob the tag name must match, such as `v*`.
    public func lastTag(reachableFrom revision: String = "HEAD", matching pattern: String? = nil) throws -> String? {
        let start = try resolveCommit(revision)
        return try LastTagSearch(repository: self).lastTag(from: RawObjectID(start.oid), matching: pattern)
    }

    /// Creates a tag at `revision`: annotated when `message` is given (tagged by the repository's
    /// configured `user.name` / `user.email`), lightweight otherwise.
    ///
    /// - Parameter force: replace an existing tag of the same name instead of failing.
    @discardableResult
    public func createTag(_ name: String, at revision: String = "HEAD", message: String? = nil,
                          force: Bool = false) throws -> GitTag {
        var valid: Int32 = 0
        git_tag_name_is_valid(&valid, name)
        guard valid == 1 else {
            throw GitError(.invalidArgument, "'\(name)' is not a valid tag name",
                           hint: "tag names cannot contain spaces, '..', '~', '^', ':', '?', '*', '[' or end in '.lock'")
        }
        var target: OpaquePointer?
        try check(git_revparse_single(&target, handle, revision), "resolving '\(revision)' to tag it")
        defer { git_object_free(target) }
        var oid = git_oid()
        let code: Int32
        if let message {
            var tagger: UnsafeMutablePointer<git_signature>?
            let signatureCode = git_signature_default(&tagger, handle)
            guard signatureCode == 0 else {
                throw GitError(.invalidArgument, "cannot create annotated tag \(name): no tagger identity configured in \(displayPath)",
                               hint: "git config user.name \"CI\" && git config user.email ci@example.com (or leave out the message for a lightweight tag)")
            }
            defer { git_signature_free(tagger) }
            code = git_tag_create(&oid, handle, name, target, tagger, message, force ? 1 : 0)
        } else {
            code = git_tag_create_lightweight(&oid, handle, name, target, force ? 1 : 0)
        }
        if code == GIT_EEXISTS.rawValue {
            throw GitError(.alreadyExists, "tag \(name) already exists in \(displayPath)",
                           hint: "choose another name, or pass force to move it")
        }
        try check(code, "creating tag \(name)")
        guard let tag = try tag(named: name) else {
            throw GitError(.invalidArgument, "tag \(name) was created but '\(revision)' is not a commit")
        }
        return tag
    }

    /// Deletes a tag; returns whether it existed.
    @discardableResult
    public func deleteTag(_ name: String) throws -> Bool {
        let code = git_tag_delete(handle, name)
        if code == GIT_ENOTFOUND.rawValue { return false }
        try check(code, "deleting tag \(name)")
        return true
    }
}

