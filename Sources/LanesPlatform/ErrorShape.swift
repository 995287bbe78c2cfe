/// What kind of failure an error is: it decides the exit status (from the one table, `ExitStatus`)
/// and how the error is presented. Declared here, at the bottom, so that every module's errors can
/// give theirs.
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

    /// The process exit status for this kind.
    public var exitStatus: Int32 { status.rawValue }

    public var status: ExitStatus {
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

/// The one error shape: what kind of failure (`lanesKind`), what happened (`message`, naming the
/// file, line, field or option) and what to do about it (`hint`, when lanes knows). Every module's
/// public errors conform, in a file of their own module (`SigningError+Shape.swift`), so the error
/// keeps its type (an `OnError` hook can match `SigningError`) while every front door prints it and
/// picks its exit status the same way.
public protocol ClassifiedError: Error, CustomStringConvertible {
    var lanesKind: ErrorKind { get }
    /// The problem, without the hint.
    var message: String { get }
    var hint: String? { get }
}

extension ClassifiedError {
    /// An error whose description already says everything: its description is the message.
    public var message: String { description }
    public var hint: String? { nil }

    /// `message`, then the hint on its own indented line: how every front door prints an error.
    public var shapedDescription: String {
        guard let hint, !hint.isEmpty else { return message }
        return "\(message)\n  hint: \(hint)"
    }
}
