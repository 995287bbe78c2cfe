#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A counting semaphore for threads of their own (`PlatformThread`: an output queue's writer, a
/// redacting pipe's reader), over a pthread mutex and condition: `post` from anywhere, `wait` only
/// on such a thread, never on the cooperative pool (async code awaits instead).
public final class ThreadSemaphore: @unchecked Sendable {
    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    private var count: Int

    public init(value: Int = 0) {
        count = value
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        mutex.deallocate()
        condition.deallocate()
    }

    /// Adds one to the count, waking one waiter.
    public func post() {
        pthread_mutex_lock(mutex)
        count += 1
        pthread_cond_signal(condition)
        pthread_mutex_unlock(mutex)
    }

    /// Waits until the count is above zero, then takes one.
    public func wait() {
        pthread_mutex_lock(mutex)
        while count == 0 { pthread_cond_wait(condition, mutex) }
        count -= 1
        pthread_mutex_unlock(mutex)
    }

    /// `wait()` for at most `timeout` (wall-clock time, as the condition measures it); whether one was taken.
    @discardableResult
    public func wait(timeout: Duration) -> Bool {
        var now = timespec()
        clock_gettime(CLOCK_REALTIME, &now)
        let (seconds, attoseconds) = timeout.components
        var nanoseconds = Int64(now.tv_nsec) + attoseconds / 1_000_000_000
        var deadline = timespec()
        deadline.tv_sec = now.tv_sec + Int(seconds) + Int(nanoseconds / 1_000_000_000)
        nanoseconds %= 1_000_000_000
        deadline.tv_nsec = Int(nanoseconds)
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        while count == 0 {
            if pthread_cond_timedwait(condition, mutex, &deadline) == ETIMEDOUT { break }
        }
        guard count > 0 else { return false }
        count -= 1
        return true
    }
}
