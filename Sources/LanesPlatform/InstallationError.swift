/// Something about lanes' own installation or the files it needs is wrong.
public struct InstallationError: Error, CustomStringConvertible {
    public let message: String
    public let hint: String?

    public init(_ message: String, hint: String? = nil) {
        self.message = message
        self.hint = hint
    }

    /// Printed in the one error shape (InstallationError+Shape.swift).
    public var description: String { shapedDescription }
}
