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

    /// The files of `commit`'s tree that `selection` chooses, by path, with their contents, read
    /// within its limits: only the folders it names are listed, each file's size is read from the
    /// object database's header before its contents, and the read stops as soon as a limit is
    /// passed (`.exceeded`, with nothing read). A tree that names one large blob thousands of times
    /// costs what the limits allow, not what the names multiply to.
    public func files(at commit: ObjectID, selecting selection: TreeSelection) throws -> TreeSelection.Read {
        do {
            return .files(try selectedFiles(at: commit, selection))
        } catch let exceeded as TreeSelection.Exceeded {
            return .exceeded(exceeded)
        }
    }

    private func selectedFiles(at commit: ObjectID, _ selection: TreeSelection) throws -> [String: [UInt8]] {
        try withCommit(commit.hex) { commitHandle in
            var tree: OpaquePointer?
            try check(git_commit_tree(&tree, commitHandle), "reading the tree of \(commit.short)")
            defer { git_tree_free(tree) }
            var chosen: [(path: String, id: git_oid)] = []
            try collect(tree!, prefix: "", selection: selection, into: &chosen)
            var database: OpaquePointer?
            try check(git_repository_odb(&database, handle), "opening the object database")
            defer { git_odb_free(database) }
            var result: [String: [UInt8]] = [:]
            var total = 0
            for (path, id) in chosen {
                var id = id
                var size = 0
                var type = GIT_OBJECT_INVALID
                try check(git_odb_read_header(&size, &type, database, &id), "reading the size of \(path)")
                guard size <= selection.fileBytes else { throw TreeSelection.Exceeded.fileBytes(path: path, size: size) }
                total += size
                guard total <= selection.totalBytes else { throw TreeSelection.Exceeded.totalBytes }
                var blob: OpaquePointer?
                try check(git_blob_lookup(&blob, handle, &id), "reading \(path)")
                defer { git_blob_free(blob) }
                let count = Int(git_blob_rawsize(blob))
                result[path] = git_blob_rawcontent(blob).map { Array(UnsafeRawBufferPointer(start: $0, count: count)) } ?? []
            }
            return result
        }
    }

    private func collect(_ tree: OpaquePointer, prefix: String, selection: TreeSelection,
                         into chosen: inout [(path: String, id: git_oid)]) throws {
        for index in 0..<git_tree_entrycount(tree) {
            guard let entry = git_tree_entry_byindex(tree, index) else { continue }
            let path = prefix + String(cString: git_tree_entry_name(entry))
            switch git_tree_entry_type(entry) {
            case GIT_OBJECT_TREE where selection.folder(path):
                var subtree: OpaquePointer?
                try check(git_tree_lookup(&subtree, handle, git_tree_entry_id(entry)), "reading \(path)")
                defer { git_tree_free(subtree) }
                try collect(subtree!, prefix: path + "/", selection: selection, into: &chosen)
            case GIT_OBJECT_BLOB where selection.file(path):
                chosen.append((path, git_tree_entry_id(entry).pointee))
                guard chosen.count <= selection.files else { throw TreeSelection.Exceeded.files }
            default:
                continue  // what the selection does not name, and submodules
            }
        }
    }

    /// Commits `changes` (path to new contents) and the removal of `removing` on top of `parent`
    /// (nil: a first commit) and points `refs/heads/<branch>` at the new commit. The author is
    /// `name <email>`, now.
    @discardableResult
    public func commit(_ changes: [String: [UInt8]], removing: Set<String> = [], parent: ObjectID?, branch: String, message: String,
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
        for path in removing.sorted() {
            try check(git_index_remove(index, path, 0), "removing \(path)")
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

/// Which files of a tree to read, and how much at most (see `Repository.files(at:selecting:)`).
public struct TreeSelection: Sendable {
    /// Whether to list a folder (its path from the tree's root, without a trailing slash).
    public let folder: @Sendable (String) -> Bool
    /// Whether to read a file.
    public let file: @Sendable (String) -> Bool
    public let files: Int
    public let fileBytes: Int
    public let totalBytes: Int

    public init(folder: @escaping @Sendable (String) -> Bool, file: @escaping @Sendable (String) -> Bool,
                files: Int, fileBytes: Int, totalBytes: Int) {
        self.folder = folder
        self.file = file
        self.files = files
        self.fileBytes = fileBytes
        self.totalBytes = totalBytes
    }

    public enum Read: Sendable {
        case files([String: [UInt8]])
        /// A limit was passed; nothing was read.
        case exceeded(Exceeded)
    }

    /// The limit a read passed.
    public enum Exceeded: Error, Sendable, Equatable {
        case files
        case fileBytes(path: String, size: Int)
        case totalBytes
    }
}
