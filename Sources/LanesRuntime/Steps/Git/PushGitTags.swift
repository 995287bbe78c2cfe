import LanesGit

/// `push_git_tags`: push tags to a remote.
public struct PushGitTags: Step {
    public typealias Output = [String]

    public static let definition = StepDefinition(
        id: "push_git_tags",
        summary: "Push tags to a remote (https token: LANES_GIT_TOKEN; ssh key: LANES_GIT_SSH_KEY)",
        category: .git,
        examples: [
            StepExample(swift: "try await pushGitTags()", commandLine: [], environment: [RemoteCredentials.Variable.token]),
            StepExample(swift: "try await pushGitTags(tag: \"v1.4.0\", remote: \"upstream\")",
                        commandLine: ["tag:v1.4.0", "remote:upstream"]),
        ]
    )

    @StepOption("tag", "Push only this tag (default: every tag)")
    var tag: String?
    @StepOption("remote", "The remote's name (or URL)", default: "origin")
    var remote: String
    @StepOption("force", "Replace tags that exist on the remote", default: false)
    var force: Bool

    public init() {}

    public func run(in context: StepContext) async throws -> [String] {
        let credentials = context.remoteCredentials()
        let (tags, remote, force) = (tag.map { [$0] }, self.remote, self.force)
        // libgit2 blocks in the network: a thread of its own, aborted from its progress callbacks.
        let flag = StopFlag()
        let pushed = try await BlockingWork.run(onCancel: flag.stop) {
            try context.openRepository().pushTags(tags, to: remote, force: force, credentials: credentials,
                                                  shouldStop: { flag.isStopped })
        }
        context.log.line(pushed.isEmpty ? "no tags to push" : "pushed \(pushed.joined(separator: ", ")) to \(URLRedaction.redact(remote))")
        return pushed
    }
}
