/// The poll-SCM check the daemon runs before a scheduled lane: fetch one branch of a remote
/// and tell whether it moved since the commit the lane last built.
///
/// A `Sendable` value that opens the repository afresh on each poll, so it can be kept by a
/// long-running scheduler and called from any task.
public struct RemotePoller: Sendable {
    /// Any path inside the checkout.
    public let repositoryPath: String
    public let remote: String
    /// The branch to watch; nil means the branch checked out at poll time.
    public let branch: String?
    public let credentials: RemoteCredentials

    public init(repositoryPath: String, remote: String = "origin", branch: String? = nil,
                credentials: RemoteCredentials = .none) {
        self.repositoryPath = repositoryPath
        self.remote = remote
        self.branch = branch
        self.credentials = credentials
    }

    /// Fetches and compares. `lastBuilt` nil compares with the remote-tracking ref before the fetch.
    public func poll(since lastBuilt: ObjectID?, shouldStop: @escaping @Sendable () -> Bool = { false }) throws -> PollResult {
        let repository = try Repository(discoveringFrom: repositoryPath)
        return try repository.poll(remote: remote, branch: branch, since: lastBuilt, credentials: credentials, shouldStop: shouldStop)
    }
}
