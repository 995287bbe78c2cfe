import LanesGit

/// A match storage in one branch of a git repository, read and written without a working tree:
/// the branch is fetched into a bare repository in a private folder, files are read from its
/// objects, and changes become one commit pushed back (a fast-forward, or refused).
public struct MatchGitStorage: Sendable {
    public let url: String
    public let branch: String
    /// Token, http headers (`git_basic_authorization`, `git_bearer_authorization`) or ssh key:
    /// handed to libgit2 through callbacks and options, never in a URL or an argument.
    public let credentials: RemoteCredentials
    public let repositoryPath: String

    public init(url: String, branch: String, credentials: RemoteCredentials, repositoryPath: String) {
        self.url = url
        self.branch = branch
        self.credentials = credentials
        self.repositoryPath = repositoryPath
    }

    /// The branch's files and its tip (nil tip and no files: the branch does not exist yet).
    public func read() throws -> (files: MatchFiles, tip: ObjectID?) {
        let repository = try Repository.createBare(at: repositoryPath)
        guard let tip = try repository.fetchBranch(branch, from: url, credentials: credentials) else {
            return (MatchFiles(), nil)
        }
        return (MatchFiles(try repository.files(at: tip)), tip)
    }

    /// Commits `changes` on top of `parent` and pushes the branch.
    @discardableResult
    public func write(_ changes: [String: [UInt8]], parent: ObjectID?, message: String,
                      authorName: String, authorEmail: String) throws -> ObjectID {
        let repository = try Repository(at: repositoryPath)
        let commit = try repository.commit(changes, parent: parent, branch: branch, message: message,
                                           authorName: authorName, authorEmail: authorEmail)
        try repository.pushBranch(branch, to: url, credentials: credentials)
        return commit
    }
}
