/// A failure of the schedule state and run history database, or of the scheduler around it.
public struct HistoryStoreError: Error, CustomStringConvertible, Sendable {
    public let message: String

    public init(_ message: String) { self.message = message }

    public var description: String { message }
}
