import LanesGit

/// `number_of_commits`: the commits reachable from HEAD, the usual build number.
public struct NumberOfCommits: Step {
    public typealias Output = Int

    public static let definition = StepDefinition(
        id: "number_of_commits",
        summary: "Count the commits reachable from HEAD (a build number); fails in a shallow clone",
        category: .git,
        examples: [
            StepExample(swift: "let build = try await numberOfCommits()", commandLine: []),
            StepExample(swift: "let build = try await numberOfCommits(revision: \"origin/main\")",
                        commandLine: ["revision:origin/main"]),
        ]
    )

    @StepOption("revision", "Count the commits reachable from this revision", default: "HEAD")
    var revision: String

    public init() {}

    public func run(in context: StepContext) async throws -> Int {
        let repository = try context.openRepository()
        let count = try repository.commitCount(of: revision)
        context.log.line("\(count) commits reachable from \(revision)")
        return count
    }
}
