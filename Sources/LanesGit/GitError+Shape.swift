public import LanesPlatform

/// `GitError` already has its message and hint; its own `kind` (what libgit2 said) decides the exit status.
extension GitError: ClassifiedError {
    public var lanesKind: ErrorKind {
        switch kind {
        case .notARepository, .shallowRepository, .authentication: .environment
        case .notFound, .alreadyExists, .invalidArgument: .configuration
        case .pushRejected, .libgit2, .cancelled: .laneFailure
        }
    }
}
