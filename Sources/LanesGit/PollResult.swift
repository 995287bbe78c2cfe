/// Whether a remote branch moved, as a poll-SCM schedule asks before running a lane.
public struct PollResult: Sendable, Hashable, Codable {
    public let remote: String
    public let branch: String
    /// The branch's tip on the remote now.
    public let commit: ObjectID
    /// What it was compared with: the commit given, else the remote-tracking ref before the fetch.
    public let previous: ObjectID?

    public init(remote: String, branch: String, commit: ObjectID, previous: ObjectID?) {
        self.remote = remote
        self.branch = branch
        self.commit = commit
        self.previous = previous
    }

    /// True when the tip differs from `previous`, or there was nothing to compare with.
    public var moved: Bool { previous != commit }
}
