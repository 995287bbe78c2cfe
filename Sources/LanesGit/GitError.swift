internal import CGit2

/// A failure of a git operation: what went wrong, where, and what to do about it.
public struct GitError: Error, Sendable, CustomStringConvertible {
    public enum Kind: Sendable, Hashable {
        /// No repository at or above the given path.
        case notARepository
        /// The clone is shallow, so history-wide answers (the commit count) would be wrong.
        case shallowRepository
        /// A ref, tag, commit or remote that was asked for does not exist.
        case notFound
        /// A tag or ref that would be created already exists.
        case alreadyExists
        /// The value the caller gave cannot be used (an invalid tag name, a malformed ref).
        case invalidArgument
        /// The remote refused the credentials, or asked for some that are not configured.
        case authentication
        /// The remote rejected a push of one or more refs.
        case pushRejected
        /// libgit2 reported another failure.
        case libgit2
        /// The caller stopped a network operation (a step's timeout, Ctrl-C).
        case cancelled
    }

    public let kind: Kind
    public let message: String
    /// What the user can do about it, when known.
    public let hint: String?
    /// Set when a fetch found no such branch among the remote's heads (kind `notFound`), so callers
    /// that accept a missing branch (a new match storage) match it by value, not by message text.
    public let missingRemoteBranch: String?

    public init(_ kind: Kind, _ message: String, hint: String? = nil, missingRemoteBranch: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
        self.missingRemoteBranch = missingRemoteBranch
    }

    /// Printed in the one error shape (GitError+Shape.swift).
    public var description: String { shapedDescription }
}

extension GitError {
    /// The error libgit2 recorded for a failed call, prefixed with what lanes was doing.
    ///
    /// - Parameter redacting: turns libgit2's text into something safe to show (it may quote a
    ///   remote URL with credentials in it).
    static func lastError(code: Int32, while action: String,
                          redacting redact: (String) -> String = URLRedaction.redact) -> GitError {
        let detail = git_error_last().flatMap { $0.pointee.message.map { String(cString: $0) } }
            ?? "libgit2 error \(code)"
        let kind: Kind = switch code {
        case GIT_ENOTFOUND.rawValue: .notFound
        case GIT_EEXISTS.rawValue: .alreadyExists
        case GIT_EINVALIDSPEC.rawValue: .invalidArgument
        case GIT_EAUTH.rawValue, GIT_ECERTIFICATE.rawValue: .authentication
        // A local (file) remote refuses a non-fast-forward push with this code, not a per-ref status.
        case GIT_ENONFASTFORWARD.rawValue: .pushRejected
        default: .libgit2
        }
        return GitError(kind, "\(action): \(redact(detail))")
    }
}

/// Throws the recorded libgit2 error when `code` is negative.
func check(_ code: Int32, _ action: @autoclosure () -> String) throws {
    guard code < 0 else { return }
    throw GitError.lastError(code: code, while: action())
}
