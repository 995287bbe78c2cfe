import LanesGit

/// `add_git_tag`: tag the commit a lane shipped.
public struct AddGitTag: Step {
    public typealias Output = GitTag

    public static let tag = StepOption<String>("tag", "The tag name, such as v1.4.0 or builds/beta/42")
    public static let message = StepOption<String>.optional(
        "message", "Annotation message; makes an annotated tag (a lightweight tag without it)")
    public static let commit = StepOption<String>("commit", "The revision to tag", default: "HEAD")
    public static let force = StepOption<Bool>("force", "Move an existing tag of the same name", default: false)

    public static let info = StepInfo(
        id: "add_git_tag",
        summary: "Create an annotated (with a message) or lightweight tag",
        options: [tag.info, message.info, commit.info, force.info],
        examples: [
            StepExample(swift: "try await addGitTag(\"v1.4.0\", message: \"Release 1.4.0\")",
                        commandLine: ["tag:v1.4.0", "message:Release 1.4.0"]),
            StepExample(swift: "try await addGitTag(\"builds/beta/\\(try await numberOfCommits())\")",
                        commandLine: ["tag:builds/beta/1234"]),
        ]
    )

    public let tag: String
    public let message: String?
    public let commit: String
    public let force: Bool

    public init(_ tag: String, message: String? = nil, commit: String = "HEAD", force: Bool = false) {
        self.tag = tag
        self.message = message
        self.commit = commit
        self.force = force
    }

    public init(options: OptionValues) throws {
        self.init(try options[Self.tag], message: try options.optional(Self.message),
                  commit: try options[Self.commit], force: try options[Self.force])
    }

    public var banner: String { "tag \(commit) as \(tag)" }

    public func run(in context: StepContext) async throws -> GitTag {
        let repository = try context.openRepository()
        let created = try gitStep { try repository.createTag(tag, at: commit, message: message, force: force) }
        context.log.line("tagged \(created.commit.short) as \(created.name)\(created.isAnnotated ? " (annotated)" : "")")
        return created
    }
}

/// Creates a tag at `commit`: annotated when `message` is given, lightweight otherwise.
@discardableResult
public func addGitTag(_ tag: String, message: String? = nil, commit: String = "HEAD",
                      force: Bool = false) async throws -> GitTag {
    try await runStep(AddGitTag(tag, message: message, commit: commit, force: force))
}
