import LanesGit

extension StepContext {
    /// The repository containing the project directory.
    func openRepository() throws -> Repository {
        try Repository(discoveringFrom: projectDirectory)
    }

    /// Remote credentials from the `LANES_GIT_*` variables; their secret values are registered
    /// for redaction before anything can print them.
    func remoteCredentials() -> RemoteCredentials {
        let credentials = RemoteCredentials.fromEnvironment(environment.variables)
        for secret in credentials.secrets { environment.redactor.register(secret) }
        return credentials
    }
}

/// Git's errors keep their type (an `OnError` hook can match `GitError`) and carry a kind for the
/// exit status.
extension GitError: ClassifiedError {
    public var lanesKind: ErrorKind { kind.lanesKind }
}

extension GitError.Kind {
    var lanesKind: ErrorKind {
        switch self {
        case .notARepository, .shallowRepository, .authentication: .environment
        case .notFound, .alreadyExists, .invalidArgument: .configuration
        case .pushRejected, .libgit2, .cancelled: .laneFailure
        }
    }
}

extension MergeFilter: OptionValue {}
