/// A built-in action a lane runs: it describes itself, so that `lanes actions`, `lanes run`,
/// the documentation and the tests all come from one place.
public protocol Step: Sendable {
    associatedtype Output: Sendable = Void

    /// The step's identity, summary, options and examples.
    static var info: StepInfo { get }

    /// Builds the step from `key:value` options and the environment, as `lanes run` does.
    /// The options were already validated against `info.options`.
    init(options: OptionValues) throws

    /// Does the work. Output goes through `context.log`, which redacts secrets.
    func run(in context: StepContext) async throws -> Output

    /// One line saying what this particular run does, for the banner; defaults to the summary.
    var banner: String { get }
}

extension Step {
    public var banner: String { Self.info.summary }
}

/// What a step says about itself.
public struct StepInfo: Sendable {
    /// Snake-case id, as fastlane names actions: `import_certificate`.
    public let id: String
    public let summary: String
    public let options: [OptionInfo]
    public let examples: [StepExample]

    public init(id: String, summary: String, options: [OptionInfo], examples: [StepExample]) {
        self.id = id
        self.summary = summary
        self.options = options
        self.examples = examples
    }
}

/// A documented use of a step, in both spellings. Tests check that every example's options
/// validate against the step, so the documentation cannot drift from the code.
public struct StepExample: Sendable {
    /// How a Lanefile calls the step.
    public let swift: String
    /// The same call as `lanes run` options (`key:value` words).
    public let commandLine: [String]
    /// Environment the example expects (names only: secrets are never written into docs).
    public let environment: [String]

    public init(swift: String, commandLine: [String], environment: [String] = []) {
        self.swift = swift
        self.commandLine = commandLine
        self.environment = environment
    }
}
