/// Where HEAD points.
public enum Head: Sendable, Hashable {
    /// On a branch (its short name, such as `main` or `feature/login`).
    case branch(name: String, commit: ObjectID)
    /// Detached at a commit, as CI systems usually check out.
    case detached(commit: ObjectID)
    /// On a branch that has no commit yet (a fresh `git init`).
    case unborn(branch: String)

    /// The branch name; nil when detached.
    public var branchName: String? {
        switch self {
        case .branch(let name, _), .unborn(let name): name
        case .detached: nil
        }
    }

    /// The commit HEAD points at; nil before the first commit.
    public var commit: ObjectID? {
        switch self {
        case .branch(_, let commit), .detached(let commit): commit
        case .unborn: nil
        }
    }

    public var isDetached: Bool {
        if case .detached = self { return true }
        return false
    }
}
