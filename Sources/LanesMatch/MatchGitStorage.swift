internal import Foundation
import LanesGit

/// How a match git storage reaches its remote: fetch the branch into the local bare repository,
/// push it back. `MatchGitStorage` uses libgit2's (`LibGit2MatchRemote`); the seam lets a test
/// move the remote between a fetch and a push.
public protocol MatchGitRemote: Sendable {
    /// The branch's tip after fetching it into `repository` (nil: the remote has no such branch).
    func fetchBranch(_ branch: String, into repository: Repository) throws -> ObjectID?
    /// Pushes `repository`'s branch; a push that is not a fast-forward throws `GitError` `.pushRejected`.
    func pushBranch(_ branch: String, from repository: Repository) throws
}

/// The remote through libgit2, with the storage's credentials.
public struct LibGit2MatchRemote: MatchGitRemote {
    public let url: String
    /// Token, http headers (`git_basic_authorization`, `git_bearer_authorization`) or ssh key:
    /// handed to libgit2 through callbacks and options, never in a URL or an argument.
    public let credentials: RemoteCredentials

    public init(url: String, credentials: RemoteCredentials) {
        self.url = url
        self.credentials = credentials
    }

    public func fetchBranch(_ branch: String, into repository: Repository) throws -> ObjectID? {
        try repository.fetchBranch(branch, from: url, credentials: credentials)
    }

    public func pushBranch(_ branch: String, from repository: Repository) throws {
        try repository.pushBranch(branch, to: url, credentials: credentials)
    }
}

/// A match storage in one branch of a git repository, read and written without a working tree:
/// the branch is fetched into a bare repository in a private folder, files are read from its
/// objects, and changes become one commit pushed back as a fast-forward. When someone pushed
/// meanwhile, the new files are committed again on the new tip and pushed again.
public struct MatchGitStorage: Sendable {
    public let url: String
    public let branch: String
    public let remote: any MatchGitRemote
    public let repositoryPath: String
    /// Pushes tried before giving up when the branch keeps moving.
    public let pushAttempts: Int
    /// How much of the branch is read.
    public let limits: MatchStorageLimits

    public init(url: String, branch: String, credentials: RemoteCredentials, repositoryPath: String) {
        self.init(url: url, branch: branch, remote: LibGit2MatchRemote(url: url, credentials: credentials), repositoryPath: repositoryPath)
    }

    public init(url: String, branch: String, remote: any MatchGitRemote, repositoryPath: String, pushAttempts: Int = 3,
                limits: MatchStorageLimits = .standard) {
        self.limits = limits
        self.url = url
        self.branch = branch
        self.remote = remote
        self.repositoryPath = repositoryPath
        self.pushAttempts = max(1, pushAttempts)
    }

    /// The branch's files and its tip (nil tip and no files: the branch does not exist yet).
    public func read() throws -> (files: MatchFiles, tip: ObjectID?) {
        let repository = try Repository.createBare(at: repositoryPath)
        guard let tip = try remote.fetchBranch(branch, into: repository) else {
            return (MatchFiles(), nil)
        }
        return (MatchFiles(try storedFiles(in: repository, at: tip)), tip)
    }

    /// The files the match layout names at `commit`, within `limits`.
    func storedFiles(in repository: Repository, at commit: ObjectID) throws -> [String: [UInt8]] {
        let selection = TreeSelection(folder: MatchLayout.isStoredFolder, file: MatchLayout.isStoredFile,
                                      files: limits.files, fileBytes: limits.fileBytes, totalBytes: limits.totalBytes)
        switch try repository.files(at: commit, selecting: selection) {
        case .files(let files): return files
        case .exceeded(.files): throw limits.tooManyFiles("\(URLRedaction.redact(url)) branch \(branch)")
        case .exceeded(.fileBytes(let path, let size)): throw limits.fileTooLarge(path, size: size)
        case .exceeded(.totalBytes): throw limits.tooMuch("\(URLRedaction.redact(url)) branch \(branch)")
        }
    }

    /// Commits `changes` on top of `parent` and pushes the branch. On a rejected push the branch
    /// is fetched again and the same files committed on its new tip, up to `pushAttempts` pushes.
    /// A path the remote now holds with other contents stops it (`MatchError.storage`), except
    /// the paths in `ifAbsent` (the version file), which are then left as the remote has them.
    /// `removing` are deleted in the same commit (on a moved branch, whichever of them it still holds).
    @discardableResult
    public func write(_ changes: [String: [UInt8]], removing: Set<String> = [], parent: ObjectID?, message: String,
                      authorName: String, authorEmail: String, ifAbsent: Set<String> = []) throws -> ObjectID {
        let repository = try Repository(at: repositoryPath)
        var parent = parent
        var changes = changes
        var removing = removing
        var attempt = 1
        while true {
            let commit = try repository.commit(changes, removing: removing, parent: parent, branch: branch, message: message,
                                               authorName: authorName, authorEmail: authorEmail)
            do {
                try remote.pushBranch(branch, from: repository)
                return commit
            } catch let error as GitError where error.kind == .pushRejected && attempt < pushAttempts {
                attempt += 1
            }
            // Someone pushed meanwhile: the new files go on top of what they pushed.
            parent = try remote.fetchBranch(branch, into: repository)
            guard let tip = parent else { continue }
            let current = try storedFiles(in: repository, at: tip)
            removing = removing.filter { current[$0] != nil }
            for path in changes.keys.sorted() {
                guard let theirs = current[path], theirs != changes[path] else { continue }
                if ifAbsent.contains(path) {
                    changes[path] = nil
                    continue
                }
                throw MatchError.storage("\(url) branch \(branch) now holds \(path) with other contents (pushed by someone else meanwhile); lanes does not overwrite it")
            }
        }
    }
}
