internal import CGit2

/// An open git repository. It owns a libgit2 handle, so it is not `Sendable`: open one per task
/// (opening is cheap) rather than sharing one between tasks.
public final class Repository {
    let handle: OpaquePointer
    /// Keeps libgit2 initialised while this repository is open.
    private let library: GitLibrary

    /// The `.git` directory (or the bare repository itself), with a trailing slash.
    public let gitDirectory: String
    /// The top of the working tree, with a trailing slash; nil for a bare repository.
    public let workingDirectory: String?

    /// Opens the repository containing `path`, searching upward from it as `git` does.
    public convenience init(discoveringFrom path: String, library: GitLibrary = GitLibrary()) throws {
        var handle: OpaquePointer?
        let code = git_repository_open_ext(&handle, path, 0, nil)
        guard code == 0, let handle else {
            if code == GIT_ENOTFOUND.rawValue {
                throw GitError(.notARepository, "no git repository at or above \(path)",
                               hint: "run lanes inside a git checkout, or point it at one (git init / git clone)")
            }
            throw GitError.lastError(code: code, while: "opening the git repository at \(path)")
        }
        self.init(handle: handle, library: library)
    }

    /// Opens the repository at exactly `path` (a working tree's top, a `.git` directory or a bare
    /// repository), without searching upward.
    public convenience init(at path: String, library: GitLibrary = GitLibrary()) throws {
        var handle: OpaquePointer?
        let code = git_repository_open_ext(&handle, path, GIT_REPOSITORY_OPEN_NO_SEARCH.rawValue, nil)
        guard code == 0, let handle else {
            if code == GIT_ENOTFOUND.rawValue {
                throw GitError(.notARepository, "\(path) is not a git repository")
            }
            throw GitError.lastError(code: code, while: "opening the git repository at \(path)")
        }
        self.init(handle: handle, library: library)
    }

    private init(handle: OpaquePointer, library: GitLibrary) {
        self.handle = handle
        self.library = library
        gitDirectory = String(cString: git_repository_path(handle))
        workingDirectory = git_repository_workdir(handle).map { String(cString: $0) }
    }

    deinit {
        git_repository_free(handle)
    }

    /// Whether the repository is a shallow clone: its history stops at a cut-off, so it cannot
    /// count commits or walk past the cut.
    public var isShallow: Bool { git_repository_is_shallow(handle) == 1 }

    public var isBare: Bool { git_repository_is_bare(handle) == 1 }

    /// The working tree, or a clear error for a bare repository.
    func requireWorkingDirectory(for action: String) throws -> String {
        guard let workingDirectory else {
            throw GitError(.invalidArgument, "cannot \(action): \(gitDirectory) is a bare repository without a working tree")
        }
        return workingDirectory
    }

    /// Resolves a revision (`HEAD`, `main`, `v1.2`, `origin/main~3`, an object name) to a commit.
    public func resolveCommit(_ revision: String) throws -> ObjectID {
        try withCommit(revision) { ObjectID(git_commit_id($0)) }
    }

    /// Lends the commit `revision` names (peeling tags) to `body`.
    func withCommit<T>(_ revision: String, _ body: (OpaquePointer) throws -> T) throws -> T {
        var object: OpaquePointer?
        let code = git_revparse_single(&object, handle, revision)
        guard code == 0, let object else {
            if code == GIT_ENOTFOUND.rawValue {
                throw GitError(.notFound, "no commit named '\(revision)' in \(displayPath)",
                               hint: "check the spelling, or fetch the ref first (git fetch --tags)")
            }
            throw GitError.lastError(code: code, while: "resolving '\(revision)'")
        }
        defer { git_object_free(object) }
        var commit: OpaquePointer?
        try check(git_object_peel(&commit, object, GIT_OBJECT_COMMIT), "'\(revision)' does not name a commit")
        defer { git_commit_free(commit) }
        return try body(commit!)
    }

    /// The path shown in messages: the working tree, or the git directory when bare.
    var displayPath: String { workingDirectory ?? gitDirectory }
}
