import LanesGit

/// Poll SCM through LanesGit: fetches the tracked branch of the project's checkout and compares it
/// with the commit the lane last ran for (the first poll of a lane compares with the
/// remote-tracking ref as it was before the fetch).
public struct GitChangePoller: ChangePoller {
    public let poller: RemotePoller

    /// Credentials come from `LANES_GIT_TOKEN`, `LANES_GIT_SSH_KEY`, ... in `environment`.
    public init(repositoryPath: String, remote: String = "origin", branch: String? = nil, environment: [String: String]) {
        poller = RemotePoller(repositoryPath: repositoryPath, remote: remote, branch: branch,
                              credentials: .fromEnvironment(environment))
    }

    public func poll(lane: String, since lastBuilt: String?, shouldStop: @escaping @Sendable () -> Bool) throws -> SourceState {
        let result = try poller.poll(since: lastBuilt.flatMap(ObjectID.init(hex:)), shouldStop: shouldStop)
        return SourceState(commit: result.commit.hex, moved: result.moved)
    }
}
