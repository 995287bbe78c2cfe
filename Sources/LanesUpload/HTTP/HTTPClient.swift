import Synchronization

/// A small HTTP/1.1 client: POSIX sockets, OpenSSL for https, bodies streamed from disk,
/// a pool of keep-alive connections per server, and retries with backoff. Blocking: each call
/// runs on the caller's thread, so N threads give N requests in flight on N connections.
/// `cancellation` stops it from another thread (see `TransferCancellation`).
public final class HTTPClient: Sendable {
    public let timeouts: RequestTimeouts
    public let retry: RetryPolicy
    public let cancellation: TransferCancellation
    private let sleeper: any Sleeper
    private let tls = TLSContext()
    private let idle = Mutex<[String: [HTTPConnection]]>([:])
    /// Called before each retry with what failed, for a log line (never a URL query: it may be signed).
    private let onRetry: @Sendable (String) -> Void

    /// `sleeper` defaults to a thread sleep that `cancellation` cuts short.
    public init(timeouts: RequestTimeouts = RequestTimeouts(), retry: RetryPolicy = RetryPolicy(),
                sleeper: (any Sleeper)? = nil, cancellation: TransferCancellation = TransferCancellation(),
                onRetry: @escaping @Sendable (String) -> Void = { _ in }) {
        self.timeouts = timeouts
        self.retry = retry
        self.cancellation = cancellation
        self.sleeper = sleeper ?? ThreadSleeper(cancellation: cancellation)
        self.onRetry = onRetry
    }

    /// Sends `request`, retrying connection failures, timeouts, 5xx, 408 and 429 with backoff; a
    /// request that is not idempotent is retried only when it surely never left (no connection).
    /// Returns the last response (which may still be an error status); throws when no response came.
    /// `progress` hears body bytes as they go out, and the negative count of a failed attempt's bytes.
    public func send(_ request: HTTPRequest, progress: @Sendable (Int64) -> Void = { _ in }) throws(TransportError) -> HTTPResponse {
        var attempt = 1
        while true {
            if cancellation.isCancelled { throw cancellation.error }
            var sent: Int64 = 0
            let outcome: Result<HTTPResponse, TransportError>
            do {
                outcome = .success(try sendOnce(request) { count in sent += count; progress(count) })
            } catch {
                outcome = .failure(error)
            }
            let problem: String
            switch outcome {
            case .success(let response):
                guard RetryPolicy.isRetryable(response), request.isIdempotent else { return response }
                guard attempt < retry.attempts else { return response }
                problem = "HTTP \(response.status)"
            case .failure(let error):
                // A connection shut down by `cancel()` fails like a reset one: say what happened.
                if cancellation.isCancelled { throw cancellation.error }
                guard attempt < retry.attempts, error.isRetryable, request.isIdempotent || error.isBeforeSending else { throw error }
                problem = error.detail
            }
            if sent > 0 { progress(-sent) }
            let wait = retry.delay(afterAttempt: attempt, unitRandom: Double.random(in: 0...1))
            onRetry("\(request.method) \(request.url): \(problem); retry \(attempt) of \(retry.attempts - 1) in \(Int(wait * 1000)) ms")
            sleeper.sleep(seconds: wait)
            attempt += 1
        }
    }

    /// One attempt on a fresh connection with short time limits, even after `cancellation` was
    /// cancelled: for the request that cleans up after a stopped transfer (an S3 multipart abort),
    /// which must neither be skipped nor hold a stopping lane for long.
    public func sendCleanup(_ request: HTTPRequest, timeouts: RequestTimeouts = RequestTimeouts(connect: 2, idle: 2)) throws(TransportError) -> HTTPResponse {
        let connection = try HTTPConnection.open(to: request.url, timeouts: timeouts, tlsContext: tls)
        return try connection.exchange(request, onSent: { _ in })
    }

    private func sendOnce(_ request: HTTPRequest, onSent: (Int64) -> Void) throws(TransportError) -> HTTPResponse {
        let connection = try checkOut(request.url)
        guard cancellation.track(connection) else { throw cancellation.error }
        defer { cancellation.untrack(connection) }
        let response = try connection.exchange(request, onSent: onSent)
        if connection.reusable { checkIn(connection) }
        return response
    }

    private func checkOut(_ url: HTTPURL) throws(TransportError) -> HTTPConnection {
        while let pooled = idle.withLock({ $0[url.origin]?.popLast() }) {
            if !pooled.isStale { return pooled }
        }
        return try HTTPConnection.open(to: url, timeouts: timeouts, tlsContext: tls, cancellation: cancellation)
    }

    private func checkIn(_ connection: HTTPConnection) {
        idle.withLock { pool in
            var list = pool[connection.origin] ?? []
            if list.count < 16 { list.append(connection) }
            pool[connection.origin] = list
        }
    }
}
