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

extension MergeFilter: OptionValue {}
