import LanesGit

extension StepContext {
    /// The repository containing the project directory, with libgit2's failures turned into
    /// lanes errors.
    func openRepository() throws -> Repository {
        try gitStep { try Repository(discoveringFrom: projectDirectory) }
    }

    /// Remote credentials from the `LANES_GIT_*` variables; their secret values are registered
    /// for redaction before anything can print them.
    func remoteCredentials() -> RemoteCredentials {
        let credentials = RemoteCredentials.fromEnvironment(environment.variables)
        for secret in credentials.secrets { environment.redactor.register(secret) }
        return credentials
    }
}

/// Runs a LanesGit call, mapping its errors to lanes' kinds (which decide the exit status).
func gitStep<T>(_ body: () throws -> T) throws -> T {
    do {
        return try body()
    } catch let error as GitError {
        throw LanesError(error.kind.lanesKind, error.message, hint: error.hint)
    }
}

extension GitError.Kind {
    var lanesKind: ErrorKind {
        switch self {
        case .notARepository, .shallowRepository, .authentication: .environment
        case .notFound, .alreadyExists, .invalidArgument: .configuration
        case .pushRejected, .libgit2: .laneFailure
        }
    }
}

extension MergeFilter: OptionValue {}
