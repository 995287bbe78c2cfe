import LanesGit

/// `last_git_tag`: the most recent tag reachable from HEAD.
public struct LastGitTag: Step {
    public typealias Output = String?

    public static let definition = StepDefinition(
        id: "last_git_tag",
        summary: "Find the most recent tag reachable from HEAD (git describe --tags --abbrev=0)",
        category: .git,
        examples: [
            StepExample(swift: "let tag = try await lastGitTag()", commandLine: []),
            StepExample(swift: "let tag = try await lastGitTag(pattern: \"v*\")", commandLine: ["pattern:v*"]),
        ]
    )

    @StepOption("pattern", "Only tags matching this glob, such as v*")
    var pattern: String?

    public init() {}

    public func run(in context: StepContext) async throws -> String? {
        let repository = try context.openRepository()
        let tag = try repository.lastTag(matching: pattern)
        context.log.line(tag.map { "last tag: \($0)" } ?? "no tag is reachable from HEAD")
        return tag
    }
}
