import LanesGit

/// `push_git_tags`: push tags to a remote.
public struct PushGitTags: Step {
    public typealias Output = [String]

    public static let remote = StepOption<String>("remote", "The remote's name (or URL)", default: "origin")
    public static let tag = StepOption<String>.optional("tag", "Push only this tag (default: every tag)")
    public static let force = StepOption<Bool>("force", "Replace tags that exist on the remote", default: false)

    public static let info = StepInfo(
        id: "push_git_tags",
        summary: "Push tags to a remote (https token: LANES_GIT_TOKEN; ssh key: LANES_GIT_SSH_KEY)",
        options: [remote.info, tag.info, force.info],
        examples: [
            StepExample(swift: "try await pushGitTags()", commandLine: [], environment: [RemoteCredentials.Variable.token]),
            StepExample(swift: "try await pushGitTags(tag: \"v1.4.0\", remote: \"upstream\")",
                        commandLine: ["tag:v1.4.0", "remote:upstream"]),
        ]
    )

    public let remote: String
    public let tag: String?
    public let force: Bool

    public init(tag: String? = nil, remote: String = "origin", force: Bool = false) {
        self.remote = remote
        self.tag = tag
        self.force = force
    }

    public init(options: OptionValues) throws {
        self.init(tag: try options.optional(Self.tag), remote: try options[Self.remote], force: try options[Self.force])
    }

    public func run(in context: StepContext) async throws -> [String] {
        let repository = try context.openRepository()
        let credentials = context.remoteCredentials()
        let pushed = try gitStep {
            try repository.pushTags(tag.map { [$0] }, to: remote, force: force, credentials: credentials)
        }
        context.log.line(pushed.isEmpty ? "no tags to push" : "pushed \(pushed.joined(separator: ", ")) to \(URLRedaction.redact(remote))")
        return pushed
    }
}

/// Pushes one tag, or every tag, to `remote`; returns the tags pushed.
@discardableResult
public func pushGitTags(tag: String? = nil, remote: String = "origin", force: Bool = false) async throws -> [String] {
    try await runStep(PushGitTags(tag: tag, remote: remote, force: force))
}
