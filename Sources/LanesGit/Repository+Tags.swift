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
    /// it (lightweight tags included); nil when no tag is reachable.
    ///
    /// - Parameter pattern: a glob the tag name must match, such as `v*`.
    public func lastTag(reachableFrom revision: String = "HEAD", matching pattern: String? = nil) throws -> String? {
        let start = try resolveCommit(revision)
        do {
            return try describe(start, matching: pattern)
        } catch let error as GitError where isShallow && error.kind == .notFound {
            // libgit2 1.5 cannot walk past a shallow cut-off; look only at the history present.
            return try nearestTag(from: start, matching: pattern)
        }
    }

    private func describe(_ start: ObjectID, matching pattern: String?) throws -> String? {
        var options = git_describe_options()
        git_describe_options_init(&options, UInt32(GIT_DESCRIBE_OPTIONS_VERSION))
        options.describe_strategy = GIT_DESCRIBE_TAGS.rawValue
        return try withOptionalCString(pattern) { patternPointer in
            options.pattern = patternPointer
            var oid = start.oid
            var commit: OpaquePointer?
            try check(git_commit_lookup(&commit, handle, &oid), "reading commit \(start.short)")
            defer { git_commit_free(commit) }
            var result: OpaquePointer?
            let code = git_describe_commit(&result, commit, &options)
            // libgit2 says "cannot describe - no reference found" or "... no tags can describe"
            // when no tag is reachable: an answer (nil), not a failure.
            if code < 0, git_error_last().map({ String(cString: $0.pointee.message) })?
                .contains("cannot describe") ?? false {
                return nil
            }
            try check(code, "finding the last tag reachable from \(start.short)")
            defer { git_describe_result_free(result) }
            var format = git_describe_format_options()
            git_describe_format_options_init(&format, UInt32(GIT_DESCRIBE_FORMAT_OPTIONS_VERSION))
            format.abbreviated_size = 0
            var buffer = git_buf()
            try check(git_describe_format(&buffer, result, &format), "formatting the last tag")
            defer { git_buf_dispose(&buffer) }
            return String(cString: buffer.ptr)
        }
    }

    /// Breadth-first search from `start` for the closest tagged commit, skipping parents that a
    /// shallow clone does not have.
    private func nearestTag(from start: ObjectID, matching pattern: String?) throws -> String? {
        var tagsByCommit: [ObjectID: [String]] = [:]
        for tag in try tags() where pattern.map({ globMatches(tag.name, $0) }) ?? true {
            tagsByCommit[tag.commit, default: []].append(tag.name)
        }
        guard !tagsByCommit.isEmpty else { return nil }
        var queue = [start]
        var seen: Set<ObjectID> = [start]
        var index = 0
        while index < queue.count {
            let id = queue[index]
            index += 1
            if let names = tagsByCommit[id] { return names.sorted().last }
            for parent in presentCommit(id)?.parents ?? [] where seen.insert(parent).inserted {
                queue.append(parent)
            }
        }
        return nil
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

/// Lends an optional C string to `body`.
func withOptionalCString<T>(_ string: String?, _ body: (UnsafePointer<CChar>?) throws -> T) rethrows -> T {
    guard let string else { return try body(nil) }
    return try string.withCString { try body($0) }
}
