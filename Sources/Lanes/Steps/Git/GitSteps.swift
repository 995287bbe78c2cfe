/// The git steps, for `lanes actions` and `lanes run`.
public enum GitSteps {
    public static let all: [any Step.Type] = [
        NumberOfCommits.self,
        ChangelogFromGitCommits.self,
        EnsureGitStatusClean.self,
        ResetGitRepo.self,
        AddGitTag.self,
        LastGitTag.self,
        GitBranch.self,
        PushGitTags.self,
    ]
}
