public import LanesPlatform

/// The kind of failure and the error shape are the bottom layer's (`LanesPlatform`), so every
/// module's errors can give them; these names keep them in a Lanefile's reach through `import Lanes`.
public typealias ErrorKind = LanesPlatform.ErrorKind
public typealias ClassifiedError = LanesPlatform.ClassifiedError

/// An error that says what was wrong, where, and what to do about it.
public struct LanesError: ClassifiedError, Sendable {
    public let kind: ErrorKind
    public let message: String
    /// What the user can do about it, when lanes knows.
    public let hint: String?

    public init(_ kind: ErrorKind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var lanesKind: ErrorKind { kind }
    public var description: String { shapedDescription }
}

/// Several problems found in one validation pass, reported together.
public struct ValidationErrors: ClassifiedError, Sendable {
    public let kind: ErrorKind
    public let problems: [String]

    public init(kind: ErrorKind, problems: [String]) {
        self.kind = kind
        self.problems = problems
    }

    public var description: String {
        guard problems.count > 1 else { return problems.first ?? "invalid input" }
        return "\(problems.count) problems:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
    }

    public var lanesKind: ErrorKind { kind }
}

extension Error {
    /// The kind of any error: lanes' own errors carry one; anything else thrown while a lane runs
    /// is a lane failure.
    public var lanesKind: ErrorKind {
        switch self {
        case let error as LanesError: error.kind
        case let error as ValidationErrors: error.kind
        case let error as StepFailure: error.underlying.lanesKind
        case let error as any ClassifiedError: error.lanesKind
        default: .laneFailure
        }
    }
}
