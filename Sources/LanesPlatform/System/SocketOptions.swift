/// The socket options lanes sets, in one place: `setsockopt` takes an untyped pointer and a length,
/// and its values' C types differ between the C libraries (`timeval.tv_usec` is an `Int` on glibc and
/// an `Int32` on Darwin), so a call spelled for one OS can compile there and break on the other. Here
/// the Darwin spelling is type-checked on Linux (`make typecheck-darwin`); callers pass Swift values.
public enum SocketOptions {
    /// Which way a timeout applies.
    public enum Direction: Sendable {
        /// `SO_RCVTIMEO`: a `recv` that waits longer fails with EAGAIN.
        case receive
        /// `SO_SNDTIMEO`: a `send` that cannot hand its bytes to the kernel for longer fails with EAGAIN.
        case send

        var option: Int32 { self == .receive ? SO_RCVTIMEO : SO_SNDTIMEO }
    }

    /// Sets the receive and send timeouts, each to whole and fractional seconds; nil leaves one as it
    /// is, 0 waits forever. False (with `errno`) when the socket refused one.
    @discardableResult
    public static func setTimeouts(_ descriptor: Int32, receive: Double? = nil, send: Double? = nil) -> Bool {
        var succeeded = true
        for (direction, seconds) in [(Direction.receive, receive), (.send, send)] {
            guard let seconds else { continue }
            let whole = seconds.rounded(.down)
            var time = timeval(tv_sec: time_t(whole), tv_usec: suseconds_t(((seconds - whole) * 1_000_000).rounded()))
            succeeded = setsockopt(descriptor, SOL_SOCKET, direction.option, &time, socklen_t(MemoryLayout<timeval>.size)) == 0 && succeeded
        }
        return succeeded
    }

    /// The timeout the socket holds for `direction`, in seconds (0: none); nil when it cannot say.
    public static func timeout(_ descriptor: Int32, _ direction: Direction) -> Double? {
        var time = timeval()
        var size = socklen_t(MemoryLayout<timeval>.size)
        guard getsockopt(descriptor, SOL_SOCKET, direction.option, &time, &size) == 0 else { return nil }
        return Double(time.tv_sec) + Double(time.tv_usec) / 1_000_000
    }

    /// Sets the kernel's receive and send buffer sizes in bytes (`SO_RCVBUF`, `SO_SNDBUF`); nil leaves one as it is.
    @discardableResult
    public static func setBufferSizes(_ descriptor: Int32, receive: Int? = nil, send: Int? = nil) -> Bool {
        var succeeded = true
        if let receive { succeeded = setInteger(descriptor, SOL_SOCKET, SO_RCVBUF, receive) && succeeded }
        if let send { succeeded = setInteger(descriptor, SOL_SOCKET, SO_SNDBUF, send) && succeeded }
        return succeeded
    }

    /// `TCP_NODELAY`: small writes leave at once instead of waiting to be coalesced (Nagle).
    @discardableResult
    public static func disableCoalescing(_ descriptor: Int32) -> Bool {
        setInteger(descriptor, Int32(IPPROTO_TCP), Int32(TCP_NODELAY), 1)
    }

    /// `SO_REUSEADDR`: a listening port can be bound again while old connections are in TIME_WAIT.
    @discardableResult
    public static func allowAddressReuse(_ descriptor: Int32) -> Bool {
        setInteger(descriptor, SOL_SOCKET, SO_REUSEADDR, 1)
    }

    /// `SO_LINGER` with a zero time: closing the socket resets the connection (a dropped link, as the
    /// peer sees it) instead of an orderly end.
    @discardableResult
    public static func resetOnClose(_ descriptor: Int32) -> Bool {
        var value = linger(l_onoff: 1, l_linger: 0)
        return setsockopt(descriptor, SOL_SOCKET, SO_LINGER, &value, socklen_t(MemoryLayout<linger>.size)) == 0
    }

    /// The error a non-blocking `connect` ended with (`SO_ERROR`): 0 when it succeeded.
    public static func pendingError(_ descriptor: Int32) -> Int32 {
        var code: Int32 = 0
        var size = socklen_t(MemoryLayout<Int32>.size)
        guard getsockopt(descriptor, SOL_SOCKET, SO_ERROR, &code, &size) == 0 else { return errno }
        return code
    }

    private static func setInteger(_ descriptor: Int32, _ level: Int32, _ option: Int32, _ value: Int) -> Bool {
        var value = Int32(clamping: value)
        return setsockopt(descriptor, level, option, &value, socklen_t(MemoryLayout<Int32>.size)) == 0
    }
}
