internal import CGit2

/// The state libgit2's remote callbacks share with lanes during one fetch or push: the
/// credentials to offer, how often they were asked for, and which refs the remote rejected.
final class RemoteSession {
    let credentials: RemoteCredentials
    /// Asked at every progress report: true makes libgit2 abort the transfer (a step's timeout or
    /// Ctrl-C). A remote that sends nothing at all reports no progress; the caller stops waiting then.
    let shouldStop: @Sendable () -> Bool
    private(set) var credentialRequests = 0
    /// Why no (more) credentials could be offered, for the error message.
    private(set) var credentialProblem: String?
    /// Refs the remote refused during a push, with its reason.
    var rejectedReferences: [(reference: String, reason: String)] = []

    init(credentials: RemoteCredentials, shouldStop: @escaping @Sendable () -> Bool = { false }) {
        self.credentials = credentials
        self.shouldStop = shouldStop
    }

    /// libgit2's abort answer once `shouldStop` says so.
    fileprivate static func verdict(_ payload: UnsafeMutableRawPointer?) -> Int32 {
        guard let payload else { return 0 }
        return Unmanaged<RemoteSession>.fromOpaque(payload).takeUnretainedValue().shouldStop() ? GIT_EUSER.rawValue : 0
    }

    /// Answers libgit2's request for credentials. libgit2 asks again after a refusal; the second
    /// request for the same remote means the first answer was wrong, so give up then.
    func acquire(_ out: UnsafeMutablePointer<UnsafeMutablePointer<git_credential>?>, urlUsername: String?,
                 allowed: UInt32) -> Int32 {
        if shouldStop() { return GIT_EUSER.rawValue }
        credentialRequests += 1
        guard credentialRequests <= 1 else {
            credentialProblem = "the remote refused the credentials lanes offered"
            return GIT_EUSER.rawValue
        }
        let canUsePassword = allowed & GIT_CREDENTIAL_USERPASS_PLAINTEXT.rawValue != 0
        let canUseKey = allowed & GIT_CREDENTIAL_SSH_KEY.rawValue != 0
        let canSendUsername = allowed & GIT_CREDENTIAL_USERNAME.rawValue != 0
        let sshUser = credentials.username ?? urlUsername ?? "git"
        if canUsePassword, let token = credentials.token {
            let user = credentials.username ?? urlUsername ?? "x-access-token"
            return git_credential_userpass_plaintext_new(out, user, token)
        }
        if canUseKey, let key = credentials.sshPrivateKeyPath {
            return git_credential_ssh_key_new(out, sshUser, credentials.sshPublicKeyPath, key, credentials.sshPassphrase)
        }
        if canUseKey, credentials.useSSHAgent {
            return git_credential_ssh_key_from_agent(out, sshUser)
        }
        if canSendUsername {
            credentialRequests -= 1  // only the user name was asked; the real credential comes next
            return git_credential_username_new(out, sshUser)
        }
        credentialProblem = canUsePassword
            ? "the remote asks for a user name and token, and \(RemoteCredentials.Variable.token) is not set"
            : "the remote asks for an ssh key, and \(RemoteCredentials.Variable.sshKey) is not set"
        return GIT_EUSER.rawValue
    }

    /// libgit2 callbacks that report to this session; valid while the session is alive.
    func callbacks() -> git_remote_callbacks {
        var callbacks = git_remote_callbacks()
        git_remote_init_callbacks(&callbacks, UInt32(GIT_REMOTE_CALLBACKS_VERSION))
        callbacks.payload = Unmanaged.passUnretained(self).toOpaque()
        callbacks.credentials = { out, _, urlUsername, allowed, payload in
            guard let out, let payload else { return GIT_EUSER.rawValue }
            let session = Unmanaged<RemoteSession>.fromOpaque(payload).takeUnretainedValue()
            return session.acquire(out, urlUsername: urlUsername.map { String(cString: $0) }, allowed: allowed)
        }
        callbacks.transfer_progress = { _, payload in RemoteSession.verdict(payload) }
        callbacks.push_transfer_progress = { _, _, _, payload in RemoteSession.verdict(payload) }
        callbacks.sideband_progress = { _, _, payload in RemoteSession.verdict(payload) }
        callbacks.pack_progress = { _, _, _, payload in RemoteSession.verdict(payload) }
        callbacks.push_update_reference = { reference, status, payload in
            guard let status, let payload else { return 0 }
            let session = Unmanaged<RemoteSession>.fromOpaque(payload).takeUnretainedValue()
            session.rejectedReferences.append((reference.map { String(cString: $0) } ?? "?", String(cString: status)))
            return 0
        }
        return callbacks
    }

    /// The error for a failed remote call, with credentials masked everywhere.
    func error(code: Int32, while action: String) -> GitError {
        if shouldStop() {
            return GitError(.cancelled, credentials.redact("\(action): stopped (timeout or interrupt)"))
        }
        if let credentialProblem {
            return GitError(.authentication, credentials.redact("\(action): \(credentialProblem)"),
                            hint: "https: export \(RemoteCredentials.Variable.token) (and \(RemoteCredentials.Variable.username) if the host needs one); ssh: export \(RemoteCredentials.Variable.sshKey)=path/to/key")
        }
        return GitError.lastError(code: code, while: credentials.redact(action), redacting: credentials.redact)
    }
}
