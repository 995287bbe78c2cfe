/// How lanes signs in to a remote: a token over https, or an ssh key (a file, or the ssh agent).
///
/// The values stay in memory: they are handed to libgit2 when the remote asks, and never appear
/// in messages (`description` shows only which methods are configured).
public struct RemoteCredentials: Sendable, CustomStringConvertible {
    /// The environment variables `fromEnvironment` reads.
    public enum Variable {
        /// An https access token (a GitHub/GitLab personal or CI token). Secret.
        public static let token = "LANES_GIT_TOKEN"
        /// The user name sent with the token; defaults to the one in the URL, else `x-access-token`.
        public static let username = "LANES_GIT_USERNAME"
        /// Path of an ssh private key file.
        public static let sshKey = "LANES_GIT_SSH_KEY"
        /// Path of the matching public key, when it is not next to the private key as `.pub`.
        public static let sshPublicKey = "LANES_GIT_SSH_PUBLIC_KEY"
        /// Passphrase of the ssh private key. Secret.
        public static let sshPassphrase = "LANES_GIT_SSH_PASSPHRASE"
    }

    public var username: String?
    public var token: String?
    public var sshPrivateKeyPath: String?
    public var sshPublicKeyPath: String?
    public var sshPassphrase: String?
    /// Ask the ssh agent when no key file is given.
    public var useSSHAgent: Bool
    /// Extra HTTP headers sent to https remotes (`Authorization: Bearer ...`), in memory only. Secret.
    public var httpHeaders: [String] = []

    /// No credentials: enough for local paths, `file://` and public https remotes.
    public static let none = RemoteCredentials()

    public init(username: String? = nil, token: String? = nil, sshPrivateKeyPath: String? = nil,
                sshPublicKeyPath: String? = nil, sshPassphrase: String? = nil, useSSHAgent: Bool = true) {
        self.username = username
        self.token = token
        self.sshPrivateKeyPath = sshPrivateKeyPath
        self.sshPublicKeyPath = sshPublicKeyPath
        self.sshPassphrase = sshPassphrase
        self.useSSHAgent = useSSHAgent
    }

    /// Reads the `LANES_GIT_*` variables (see `Variable`); empty values count as unset.
    public static func fromEnvironment(_ environment: [String: String]) -> RemoteCredentials {
        func value(_ name: String) -> String? {
            guard let value = environment[name], !value.isEmpty else { return nil }
            return value
        }
        return RemoteCredentials(username: value(Variable.username), token: value(Variable.token),
                                 sshPrivateKeyPath: value(Variable.sshKey),
                                 sshPublicKeyPath: value(Variable.sshPublicKey),
                                 sshPassphrase: value(Variable.sshPassphrase))
    }

    /// The values that must never be shown.
    public var secrets: [String] {
        ([token, sshPassphrase].compactMap { $0 } + httpHeaders + httpHeaders.compactMap(Self.headerValue)).filter { !$0.isEmpty }
    }

    /// `text` with every secret value and every URL's userinfo masked.
    public func redact(_ text: String) -> String {
        var result = URLRedaction.redact(text)
        for secret in secrets.sorted(by: { $0.count > $1.count }) {
            result = result.replacing(secret, with: URLRedaction.mask)
        }
        return result
    }

    /// The credential part of `Name: Scheme credential`, which must be masked on its own too.
    private static func headerValue(_ header: String) -> String? {
        guard let colon = header.firstIndex(of: ":") else { return nil }
        let value = header[header.index(after: colon)...].trimmingPrefix(" ")
        return value.split(separator: " ", maxSplits: 1).last.map(String.init)
    }

    public var description: String {
        var methods: [String] = []
        if !httpHeaders.isEmpty { methods.append("http headers") }
        if token != nil { methods.append("https token") }
        if sshPrivateKeyPath != nil { methods.append("ssh key \(sshPrivateKeyPath!)") }
        if sshPrivateKeyPath == nil && useSSHAgent { methods.append("ssh agent") }
        return "RemoteCredentials(\(methods.isEmpty ? "none" : methods.joined(separator: ", ")))"
    }
}
