import LanesGit

/// `add_git_tag`: tag the commit a lane shipped.
public struct AddGitTag: Step {
    public typealias Output = GitTag

    public static let definition = StepDefinition(
        id: "add_git_tag",
        summary: "Create an annotated (with a message) or lightweight tag",
        category: .git,
        examples: [
            StepExample(swift: "try await addGitTag(\"v1.4.0\", message: \"Release 1.4.0\")",
                        commandLine: ["tag:v1.4.0", "message:Release 1.4.0"]),
            StepExample(swift: "try await addGitTag(\"builds/beta/\\(try await numberOfCommits())\")",
                        commandLine: ["tag:builds/beta/1234"]),
        ]
    )

    @StepOption("tag", "The tag name, such as v1.4.0 or builds/beta/42", swift: .unlabeled)
    var tag: String
    @StepOption("message", "Annotation message; makes an annotated tag (a lightweight tag without it)")
    var message: String?
    @StepOption("commit", "The revision to tag", default: "HEAD")
    var commit: String
    @StepOption("force", "Move an existing tag of the same name", default: false)
    var force: Bool

    public init() {}

    public var banner: String { "tag \(commit) as \(tag)" }

    public func run(in context: StepContext) async throws -> GitTag {
        let repository = try context.openRepository()
        let created = try repository.createTag(tag, at: commit, message: message, force: force)
        context.log.line("tagged \(created.commit.short) as \(created.name)\(created.isAnnotated ? " (annotated)" : "")")
        return created
    }
}
