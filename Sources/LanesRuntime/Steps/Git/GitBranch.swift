import LanesGit

/// `git_branch`: the branch being built.
public struct GitBranch: Step {
    public typealias Output = String?

    /// Variables CI systems set to the branch they build, read when their checkout is detached.
    static let ciBranchVariables = [
        "GITHUB_HEAD_REF", "GITHUB_REF_NAME", "CI_COMMIT_REF_NAME", "BITRISE_GIT_BRANCH", "BUILDKITE_BRANCH",
        "CIRCLE_BRANCH", "TRAVIS_BRANCH", "BRANCH_NAME", "GIT_BRANCH",
    ]

    public static let definition = StepDefinition(
        id: "git_branch",
        summary: "Name the branch checked out; when HEAD is detached, the branch the CI system reports",
        category: .git,
        examples: [StepExample(swift: "let branch = try await gitBranch()", commandLine: [])]
    )

    public init() {}

    public func run(in context: StepContext) async throws -> String? {
        try detect(in: context)
    }

    /// The branch name, from HEAD or from the CI system's variables; what `ensure_git_branch` checks too.
    func detect(in context: StepContext) throws -> String? {
        let repository = try context.openRepository()
        let head = try repository.head()
        if let branch = head.branchName {
            context.log.line("on branch \(branch)")
            return branch
        }
        for variable in Self.ciBranchVariables {
            guard let value = context.environment[variable], !value.isEmpty else { continue }
            let branch = value.hasPrefix("origin/") ? String(value.dropFirst("origin/".count)) : value
            context.log.line("HEAD is detached; \(variable) names branch \(branch)")
            return branch
        }
        context.log.line("HEAD is detached at \(head.commit?.short ?? "?") and no CI branch variable is set")
        return nil
    }
}
