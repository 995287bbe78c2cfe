internal import LanesPlatform

/// What kind of failure an error is: it decides the exit status and how the error is presented.
public enum ErrorKind: Sendable, Hashable {
    /// The command line was wrong: unknown lane, unknown or malformed option.
    case usage
    /// A value the user supplied (Lanefile, option, file contents) is wrong.
    case configuration
    /// Something the environment must provide is missing: a variable, a secret, a tool.
    case environment
    /// A step or an external tool failed while the lane ran.
    case laneFailure
    /// The Lanefile did not compile.
    case compilation
    /// A bug in lanes itself.
    case `internal`
    /// Ctrl-C or a CI abort (SIGINT, SIGTERM) stopped the lane; cleanups ran.
    case interrupted

    /// The process exit status for this kind, from the one table (`ExitStatus`).
    public var exitStatus: Int32 { status.rawValue }

    var status: ExitStatus {
        switch self {
        case .laneFailure: .laneFailed
        case .usage: .usage
        case .compilation: .compilation
        case .internal: .internalError
        case .configuration, .environment: .configuration
        case .interrupted: .interrupted
        }
    }
}

/// An error that says what was wrong, where, and what to do about it.
public struct LanesError: Error, Sendable, CustomStringConvertible {
    public let kind: ErrorKind
    public let message: String
    /// What the user can do about it, when lanes knows.
    public let hint: String?

    public init(_ kind: ErrorKind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    public var description: String {
        guard let hint else { return message }
        return "\(message)\n  hint: \(hint)"
    }
}

/// Several problems found in one validation pass, reported together.
public struct ValidationErrors: Error, Sendable, CustomStringConvertible {
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
}

/// An error of one of lanes' libraries (`GitError`, `SigningError`, ...), thrown as itself so that
/// an `OnError` hook can match its type, with the kind that decides the exit status.
public protocol ClassifiedError: Error {
    var lanesKind: ErrorKind { get }
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
