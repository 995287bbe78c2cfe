internal import LanesPlatform

/// When and how long to wait before trying a request again: exponential backoff with full jitter
/// (a random wait between zero and the exponential bound), so that parallel parts that failed
/// together do not retry together.
public struct RetryPolicy: Sendable {
    public var attempts: Int
    public var baseDelay: Double
    public var maximumDelay: Double

    public init(attempts: Int = 6, baseDelay: Double = 0.5, maximumDelay: Double = 30) {
        self.attempts = attempts
        self.baseDelay = baseDelay
        self.maximumDelay = maximumDelay
    }

    /// The wait before attempt `attempt + 1` (attempt counts from 1), given a random unit value.
    public func delay(afterAttempt attempt: Int, unitRandom: Double) -> Double {
        let bound = min(maximumDelay, baseDelay * Double(1 << min(attempt - 1, 20)))
        return bound * unitRandom
    }

    /// Whether a response is worth another try: server errors, throttling, and S3's idle-body timeout.
    public static func isRetryable(_ response: HTTPResponse) -> Bool {
        if response.status >= 500 || response.status == 429 || response.status == 408 { return true }
        return response.status == 400 && response.text.contains("<Code>RequestTimeout</Code>")
    }
}

/// Waiting, behind a protocol so tests do not sleep.
public protocol Sleeper: Sendable {
    func sleep(seconds: Double)
}

/// Sleeps the calling thread; with a `TransferCancellation`, in slices of at most 50 ms so that a
/// cancelled transfer stops waiting (between retries, between polls of a service) within that.
public struct ThreadSleeper: Sleeper {
    package let cancellation: TransferCancellation?

    public init(cancellation: TransferCancellation? = nil) {
        self.cancellation = cancellation
    }

    public func sleep(seconds: Double) {
        var left = seconds
        while left > 0, cancellation?.isCancelled != true {
            let slice = cancellation == nil ? left : min(left, 0.05)
            Self.nap(slice)
            left -= slice
        }
    }

    private static func nap(_ seconds: Double) {
        var time = timespec(tv_sec: Int(seconds), tv_nsec: Int((seconds - Double(Int(seconds))) * 1e9))
        var remaining = timespec()
        while nanosleep(&time, &remaining) != 0 && errno == EINTR { time = remaining }
    }
}
