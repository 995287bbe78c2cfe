import LanesGit

/// `last_git_tag`: the most recent tag reachable from HEAD.
public struct LastGitTag: Step {
    public typealias Output = String?

    public static let pattern = StepOption<String>.optional("pattern", "Only tags matching this glob, such as v*")

    public static let info = StepInfo(
        id: "last_git_tag",
        summary: "Find the most recent tag reachable from HEAD (git describe --tags --abbrev=0)",
        options: [pattern.info],
        examples: [
            StepExample(swift: "let tag = try await lastGitTag()", commandLine: []),
            StepExample(swift: "let tag = try await lastGitTag(pattern: \"v*\")", commandLine: ["pattern:v*"]),
        ]
    )

    public let pattern: String?

    public init(pattern: String? = nil) {
        self.pattern = pattern
    }

    public init(options: OptionValues) throws {
        self.init(pattern: try options.optional(Self.pattern))
    }

    public func run(in context: StepContext) async throws -> String? {
        let repository = try context.openRepository()
        let tag = try gitStep { try repository.lastTag(matching: pattern) }
        context.log.line(tag.map { "last tag: \($0)" } ?? "no tag is reachable from HEAD")
        return tag
    }
}

/// The most recent tag reachable from HEAD, or nil when there is none.
@discardableResult
public func lastGitTag(pattern: String? = nil) async throws -> String? {
    try await runStep(LastGitTag(pattern: pattern))
}
