/// What can go wrong with a match storage, each case naming the file or option at fault. Never
/// holds the password or any decrypted byte.
public enum MatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The password variable is unset or empty.
    case passwordMissing(variable: String)
    /// The password does not decrypt this file (or, for v1 files, what came out is not what the
    /// file's extension says).
    case wrongPassword(variable: String, file: String)
    /// The stored text is not base64 or shorter than its header.
    case damaged(file: String, problem: String)
    /// A decrypted file does not parse as its extension says.
    case unreadable(file: String, problem: String)
    /// No usable certificate, profile or storage content.
    case notFound(String, hint: String)
    /// An option's value is wrong.
    case badOption(name: String, problem: String)
    /// Something the storage did (git, S3, the file system) failed.
    case storage(String)
    /// A feature that needs a service lanes does not have yet.
    case unavailable(String, hint: String)
    /// New files could not be pushed; they are kept, still encrypted, in `folder`.
    case notStored(String, folder: String, hint: String)

    public var description: String {
        switch self {
        case let .passwordMissing(variable):
            "\(variable) is not set: the match storage cannot be decrypted"
        case let .wrongPassword(variable, file):
            "\(file): cannot decrypt with the password in \(variable) (wrong password, or the file is damaged)"
        case let .damaged(file, problem):
            "\(file): not a match-encrypted file (\(problem))"
        case let .unreadable(file, problem):
            "\(file): decrypted, but \(problem)"
        case let .notFound(message, _):
            message
        case let .badOption(name, problem):
            "option \(name): \(problem)"
        case let .storage(message):
            message
        case let .unavailable(message, _):
            message
        case let .notStored(message, _, _):
            message
        }
    }

    /// What to do about it, when there is a clear next step.
    public var hint: String? {
        switch self {
        case let .passwordMissing(variable):
            "export \(variable) (the passphrase of the match repository) in the CI job's secret settings"
        case let .wrongPassword(variable, _):
            "check \(variable); it is the passphrase fastlane match asked for when the repository was created"
        case let .notFound(_, hint), let .unavailable(_, hint), let .notStored(_, _, hint):
            hint
        default:
            nil
        }
    }

    /// Whether the machine or service is at fault rather than the configuration.
    public var isEnvironmental: Bool {
        switch self {
        case .storage, .notStored: true
        default: false
        }
    }
}
