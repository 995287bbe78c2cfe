/// A step's `timeout`: the step runs in a child task that is cancelled when the time is up, and
/// cancellation ends the step's processes, whole process groups included (see `SubprocessRunner`).
struct StepDeadline {
    let seconds: Double?
    let stepID: String

    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        guard let seconds else { return try await body() }
        return try await withThrowingTaskGroup(of: T.self) { group in
            group.addTask { try await body() }
            group.addTask {
                try await Task.sleep(for: .seconds(seconds))
                throw StepTimedOut(stepID: stepID, seconds: seconds)
            }
            defer { group.cancelAll() }
            guard let first = try await group.next() else { throw StepTimedOut(stepID: stepID, seconds: seconds) }
            return first
        }
    }
}

/// A step ran past its `timeout`; its processes were ended.
public struct StepTimedOut: Error, ClassifiedError, CustomStringConvertible {
    public let stepID: String
    public let seconds: Double

    public var lanesKind: ErrorKind { .laneFailure }
    public var description: String {
        "\(stepID) timed out after \(seconds.formatted()) s; its processes were ended"
    }
}
