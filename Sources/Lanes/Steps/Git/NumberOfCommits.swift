import LanesGit

/// `number_of_commits`: the commits reachable from HEAD, the usual build number.
public struct NumberOfCommits: Step {
    public typealias Output = Int

    public static let revision = StepOption<String>("revision", "Count the commits reachable from this revision",
                                                    default: "HEAD")

    public static let info = StepInfo(
        id: "number_of_commits",
        summary: "Count the commits reachable from HEAD (a build number); fails in a shallow clone",
        options: [revision.info],
        examples: [
            StepExample(swift: "let build = try await numberOfCommits()", commandLine: []),
            StepExample(swift: "let build = try await numberOfCommits(revision: \"origin/main\")",
                        commandLine: ["revision:origin/main"]),
        ]
    )

    public let revision: String

    public init(revision: String = "HEAD") {
        self.revision = revision
    }

    public init(options: OptionValues) throws {
        self.init(revision: try options[Self.revision])
    }

    public func run(in context: StepContext) async throws -> Int {
        let repository = try context.openRepository()
        let count = try gitStep { try repository.commitCount(of: revision) }
        context.log.line("\(count) commits reachable from \(revision)")
        return count
    }
}

/// The number of commits reachable from `revision`: the build number most teams use.
@discardableResult
public func numberOfCommits(revision: String = "HEAD") async throws -> Int {
    try await runStep(NumberOfCommits(revision: revision))
}
