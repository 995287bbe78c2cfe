internal import LanesPlatform
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
    public let proxies: ProxySettings
    private let resolver: any NameResolver
    /// Bodies of at least this many bytes are sent with `Expect: 100-continue`, so that a server
    /// that refuses the request (wrong key, no space, a redirect) does so before gigabytes go out.
    public let expectContinueFrom: Int64

    /// How many same-origin 307/308 redirects one request follows.
    package static let maximumRedirects = 5

    /// `sleeper` defaults to a thread sleep that `cancellation` cuts short; `proxies` to the
    /// process environment's proxy variables (a step passes the lane's).
    public init(timeouts: RequestTimeouts = RequestTimeouts(), retry: RetryPolicy = RetryPolicy(),
                sleeper: (any Sleeper)? = nil, cancellation: TransferCancellation = TransferCancellation(),
                proxies: ProxySettings? = nil, resolver: any NameResolver = SystemNameResolver(),
                expectContinueFrom: Int64 = 1 << 20,
                onRetry: @escaping @Sendable (String) -> Void = { _ in }) {
        self.timeouts = timeouts
        self.retry = retry
        self.cancellation = cancellation
        self.sleeper = sleeper ?? ThreadSleeper(cancellation: cancellation)
        self.proxies = proxies ?? ProxySettings(environment: ProcessEnvironment.current())
        self.resolver = resolver
        self.expectContinueFrom = expectContinueFrom
        self.onRetry = onRetry
    }

    /// Sends `request`, retrying connection failures, timeouts, 5xx, 408 and 429 with backoff; a
    /// request that is not idempotent is retried only when it surely never left (no connection).
    /// Returns the last response (which may still be an error status); throws when no response came.
    /// `progress` hears body bytes as they go out, and the negative count of a failed attempt's bytes.
    ///
    /// A 307 or 308 to the same origin (scheme, host, port) is followed with the same method, headers
    /// and body (a file body is read again), up to `maximumRedirects` times; any other redirect, or
    /// one to another origin, is an error: credentials and signatures never go to another server.
    public func send(_ request: HTTPRequest, progress: @Sendable (Int64) -> Void = { _ in }) throws(TransportError) -> HTTPResponse {
        var current = request
        for _ in 0...Self.maximumRedirects {
            let response = try sendRetrying(current, progress: progress)
            guard current.followsRedirects else { return response }
            guard let next = try Self.redirectTarget(of: response, for: current) else { return response }
            current.url = next
        }
        throw TransportError(reason: .redirect, detail: "\(request.method) \(request.url) was redirected more than \(Self.maximumRedirects) times")
    }

    /// Where a redirect response sends `request` again, nil when `response` is no redirect; throws
    /// for a redirect lanes does not follow.
    package static func redirectTarget(of response: HTTPResponse, for request: HTTPRequest) throws(TransportError) -> HTTPURL? {
        guard [301, 302, 303, 307, 308].contains(response.status) else { return nil }
        let what = "\(request.method) \(request.url) answered \(response.status)"
        guard let location = response.header("Location"), !location.isEmpty else {
            // S3 says which region holds a bucket addressed in the wrong one.
            if let region = response.header("x-amz-bucket-region") {
                throw TransportError(reason: .redirect, detail: "\(what): the bucket is in region \(region); set the region option (AWS_REGION) to \(region)")
            }
            throw TransportError(reason: .redirect, detail: "\(what) without a Location")
        }
        let target: HTTPURL?
        if location.hasPrefix("/") && !location.hasPrefix("//") {
            let parts = location.split(separator: "?", maxSplits: 1, omittingEmptySubsequences: false)
            target = location.utf8.contains(where: { $0 <= 0x20 || $0 == 0x7f }) ? nil
                : request.url.with(path: String(parts[0]), query: parts.count > 1 ? String(parts[1]) : nil)
        } else {
            target = HTTPURL(location)
        }
        guard let target else { throw TransportError(reason: .redirect, detail: "\(what) with a Location that is not an http(s) URL") }
        guard response.status == 307 || response.status == 308 else {
            throw TransportError(reason: .redirect, detail: "\(what), a redirect to \(target) that lanes does not follow (only 307 and 308 keep the method and body): use that URL")
        }
        guard target.origin == request.url.origin else {
            throw TransportError(reason: .redirect, detail: "\(what), a redirect to another server (\(target)); lanes never sends credentials across origins: use that URL if it is trusted")
        }
        return target
    }

    private func sendRetrying(_ request: HTTPRequest, progress: @Sendable (Int64) -> Void) throws(TransportError) -> HTTPResponse {
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
        let connection = try HTTPConnection.open(to: request.url, timeouts: timeouts, tlsContext: tls,
                                                 proxy: try proxies.proxy(for: request.url), resolver: resolver)
        return try connection.exchange(request, onSent: { _ in })
    }

    /// One attempt; a server that answers `Expect: 100-continue` with 417 gets the request again without it.
    private func sendOnce(_ request: HTTPRequest, expectContinue: Bool = true, onSent: (Int64) -> Void) throws(TransportError) -> HTTPResponse {
        let connection = try checkOut(request.url)
        guard cancellation.track(connection) else { throw cancellation.error }
        defer { cancellation.untrack(connection) }
        let waitsForContinue = expectContinue && request.body.length >= expectContinueFrom
        let response = try connection.exchange(request, continueWait: waitsForContinue ? timeouts.continueWait : nil, onSent: onSent)
        if connection.reusable { checkIn(connection) }
        if response.status == 417 && waitsForContinue { return try sendOnce(request, expectContinue: false, onSent: onSent) }
        return response
    }

    private func checkOut(_ url: HTTPURL) throws(TransportError) -> HTTPConnection {
        while let pooled = idle.withLock({ $0[url.origin]?.popLast() }) {
            if !pooled.isStale { return pooled }
        }
        return try HTTPConnection.open(to: url, timeouts: timeouts, tlsContext: tls, proxy: try proxies.proxy(for: url),
                                       resolver: resolver, cancellation: cancellation)
    }

    private func checkIn(_ connection: HTTPConnection) {
        idle.withLock { pool in
            var list = pool[connection.origin] ?? []
            if list.count < 16 { list.append(connection) }
            pool[connection.origin] = list
        }
    }
}
