
/// Work that blocks a thread (socket transfers) run from async code: on a thread of its own, never
/// on the cooperative pool (two cores give it two threads), with the task's cancellation passed on
/// through `onCancel` so the work can end itself (`TransferCancellation.cancel`).
public enum BlockingThread {
    public static func run<T: Sendable>(onCancel: @escaping @Sendable () -> Void,
                                        _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await withTaskCancellationHandler {
            try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<T, any Error>) in
                do {
                    try PlatformThread.detach { continuation.resume(with: Result { try work() }) }
                } catch {
                    continuation.resume(throwing: error)
                }
            }
        } onCancel: {
            onCancel()
        }
    }
}
