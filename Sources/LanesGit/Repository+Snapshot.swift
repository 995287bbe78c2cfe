internal import CGit2

/// Reading and writing whole trees in memory, for stores kept in git (fastlane match's
/// repository): fetch one branch into a bare repository, read its files, commit new contents and
/// push. No working tree, so nothing is checked out on disk.
extension Repository {
    /// Creates (or opens) a bare repository at `path`.
    public static func createBare(at path: String, library: GitLibrary = GitLibrary()) throws -> Repository {
        var handle: OpaquePointer?
        try check(git_repository_init(&handle, path, 1), "creating a bare repository at \(path)")
        git_repository_free(handle)
        return try Repository(at: path, library: library)
    }

    /// Every file of `commit`'s tree, by path, with its contents.
    public func files(at commit: ObjectID) throws -> [String: [UInt8]] {
        try withCommit(commit.hex) { commitHandle in
            var tree: OpaquePointer?
            try check(git_commit_tree(&tree, commitHandle), "reading the tree of \(commit.short)")
            defer { git_tree_free(tree) }
            var result: [String: [UInt8]] = [:]
            try collect(tree!, prefix: "", into: &result)
            return result
        }
    }

    private func collect(_ tree: OpaquePointer, prefix: String, into result: inout [String: [UInt8]]) throws {
        for index in 0..<git_tree_entrycount(tree) {
            guard let entry = git_tree_entry_byindex(tree, index) else { continue }
            let name = prefix + String(cString: git_tree_entry_name(entry))
            var object: OpaquePointer?
            try check(git_tree_entry_to_object(&object, handle, entry), "reading \(name)")
            defer { git_object_free(object) }
            switch git_tree_entry_type(entry) {
            case GIT_OBJECT_TREE:
                try collect(object!, prefix: name + "/", into: &result)
            case GIT_OBJECT_BLOB:
                let size = Int(git_blob_rawsize(object))
                let bytes = git_blob_rawcontent(object).map { Array(UnsafeRawBufferPointer(start: $0, count: size)) } ?? []
                result[name] = bytes
            default:
                continue  // submodules: not part of a file store
            }
        }
    }

    /// Commits `changes` (path to new contents) on top of `parent` (nil: a first commit) and points
    /// `refs/heads/<branch>` at the new commit. The author is `name <email>`, now.
    @discardableResult
    public func commit(_ changes: [String: [UInt8]], parent: ObjectID?, branch: String, message: String,
                       authorName: String, authorEmail: String) throws -> ObjectID {
        var index: OpaquePointer?
        try check(git_index_new(&index), "creating an index")
        defer { git_index_free(index) }
        var parentHandle: OpaquePointer?
        if let parent {
            var oid = parent.oid
            try check(git_commit_lookup(&parentHandle, handle, &oid), "reading commit \(parent.short)")
            var tree: OpaquePointer?
            try check(git_commit_tree(&tree, parentHandle), "reading the tree of \(parent.short)")
            defer { git_tree_free(tree) }
            try check(git_index_read_tree(index, tree), "reading the tree of \(parent.short)")
        }
        defer { git_commit_free(parentHandle) }
        for (path, bytes) in changes.sorted(by: { $0.key < $1.key }) {
            var blob = git_oid()
            try check(bytes.withUnsafeBytes { git_blob_create_from_buffer(&blob, handle, $0.baseAddress, $0.count) }, "storing \(path)")
            var entry = git_index_entry()
            entry.mode = 0o100644
            entry.id = blob
            entry.file_size = UInt32(truncatingIfNeeded: bytes.count)
            try path.withCString { name in
                entry.path = name
                try check(git_index_add(index, &entry), "adding \(path)")
            }
        }
        var treeID = git_oid()
        try check(git_index_write_tree_to(&treeID, index, handle), "writing the tree")
        var tree: OpaquePointer?
        try check(git_tree_lookup(&tree, handle, &treeID), "reading the new tree")
        defer { git_tree_free(tree) }
        var signature: UnsafeMutablePointer<git_signature>?
        try check(git_signature_now(&signature, authorName, authorEmail), "making the commit author \(authorName)")
        defer { git_signature_free(signature) }
        var commitID = git_oid()
        var parents: [OpaquePointer?] = parentHandle.map { [$0] } ?? []
        try check(parents.withUnsafeMutableBufferPointer { buffer in
            git_commit_create(&commitID, handle, nil, signature, signature, nil, message, tree, buffer.count, buffer.baseAddress)
        }, "committing to \(branch)")
        var reference: OpaquePointer?
        try check(git_reference_create(&reference, handle, "refs/heads/\(branch)", &commitID, 1, message), "moving \(branch)")
        git_reference_free(reference)
        return ObjectID(commitID)
    }

    /// Pushes the local `branch` to `remote` (a URL or path). The remote refuses a push that is
    /// not a fast-forward, so a concurrent change is never overwritten.
    public func pushBranch(_ branch: String, to remote: String, credentials: RemoteCredentials = .none) throws {
        try withRemote(remote, credentials: credentials) { handle, _, session in
            var options = git_push_options()
            git_push_options_init(&options, UInt32(GIT_PUSH_OPTIONS_VERSION))
            options.callbacks = session.callbacks()
            let action = "pushing \(branch) to \(remote)"
            let code = withStringArray(credentials.httpHeaders) { headers in
                options.custom_headers = headers
                return withStringArray(["refs/heads/\(branch):refs/heads/\(branch)"]) { git_remote_push(handle, &$0, &options) }
            }
            guard code == 0 else { throw session.error(code: code, while: action) }
            if !session.rejectedReferences.isEmpty {
                let reasons = session.rejectedReferences.map { "\($0.reference): \($0.reason)" }.joined(separator: "; ")
                throw GitError(.pushRejected, credentials.redact("\(action): the remote rejected \(reasons)"),
                               hint: "someone changed the branch meanwhile; run the command again")
            }
        }
    }

    /// Fetches `branch` from `remote` into `refs/heads/<branch>` here; nil when the remote has no
    /// such branch (a new match storage).
    public func fetchBranch(_ branch: String, from remote: String, credentials: RemoteCredentials = .none) throws -> ObjectID? {
        do {
            let tip = try fetch(remote: remote, branch: branch, credentials: credentials)
            var oid = tip.oid
            var reference: OpaquePointer?
            try check(git_reference_create(&reference, handle, "refs/heads/\(branch)", &oid, 1, "fetched"), "recording \(branch)")
            git_reference_free(reference)
            return tip
        } catch let error as GitError where error.missingRemoteBranch == branch {
            return nil
        }
    }
}
