/// Why an upload failed, with what to check. The command line and the steps turn it into a
/// `LanesError` of the same kind (`UploadError.Kind` maps one to one onto `ErrorKind`).
public struct UploadError: Error, Sendable, CustomStringConvertible, Equatable {
    public enum Kind: Sendable, Hashable {
        /// The destination text or an option is malformed.
        case usage
        /// A value the user supplied is wrong (a checksum that does not match, a rejected key).
        case configuration
        /// Something the environment must provide is missing (a variable, a file).
        case environment
        /// The transfer failed: network, server error, a remote state that went wrong.
        case transfer
        /// A bug in lanes.
        case `internal`
    }

    public let kind: Kind
    public let message: String
    public let hint: String?

    public init(_ kind: Kind, _ message: String, hint: String? = nil) {
        self.kind = kind
        self.message = message
        self.hint = hint
    }

    /// Printed in the one error shape (UploadError+Shape.swift).
    public var description: String { shapedDescription }

    static func usage(_ message: String, hint: String? = nil) -> UploadError { UploadError(.usage, message, hint: hint) }

    static func missingVariable(_ variable: String, for destination: String, detail: String) -> UploadError {
        UploadError(.environment, "\(destination): \(detail)", hint: "set \(variable)")
    }

    /// The server (or the local key parser) refused the credentials.
    static func credentials(destination: String, variable: String, detail: String) -> UploadError {
        UploadError(.configuration, "\(destination): credentials rejected: \(detail)", hint: "check \(variable)")
    }

    static func checksumMismatch(destination: String, detail: String) -> UploadError {
        UploadError(.transfer, "\(destination): checksum mismatch: \(detail); nothing was kept",
                    hint: "the bytes changed between disk and server: check the file is not being written, then retry")
    }

    static func artifact(_ path: String, _ detail: String) -> UploadError {
        UploadError(.configuration, "cannot read artifact \(path): \(detail)")
    }

    static func transfer(_ destination: String, _ detail: String, hint: String? = nil) -> UploadError {
        UploadError(.transfer, "\(destination): \(detail)", hint: hint)
    }

    static func `internal`(_ message: String) -> UploadError { UploadError(.internal, message) }
}
