import Synchronization

/// Stops a blocking transfer from another thread. The HTTP client is synchronous (a part upload
/// blocks in `send` or `recv`), so a step's cancellation cannot reach it through `Task`:
/// `cancel()` shuts down every connection in use, which makes the blocked call return at once, and
/// every later request, retry wait or poll wait then ends with a `.cancelled` transport error.
/// Cleanup requests (an S3 multipart abort) still go out through `HTTPClient.sendCleanup`.
public final class TransferCancellation: Sendable {
    private let state = Mutex<(cancelled: Bool, open: [ObjectIdentifier: HTTPConnection])>((false, [:]))

    public init() {}

    public var isCancelled: Bool { state.withLock { $0.cancelled } }

    public func cancel() {
        let open = state.withLock { state in
            state.cancelled = true
            return Array(state.open.values)
        }
        open.forEach { $0.interrupt() }
    }

    /// Follows `connection` while a request uses it; false when the transfer was already cancelled.
    package func track(_ connection: HTTPConnection) -> Bool {
        state.withLock { state in
            guard !state.cancelled else { return false }
            state.open[ObjectIdentifier(connection)] = connection
            return true
        }
    }

    package func untrack(_ connection: HTTPConnection) {
        _ = state.withLock { $0.open.removeValue(forKey: ObjectIdentifier(connection)) }
    }

    package var error: TransportError { TransportError(reason: .cancelled, detail: "the transfer was cancelled") }
}
