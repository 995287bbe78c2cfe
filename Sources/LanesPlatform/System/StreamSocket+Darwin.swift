#if canImport(Darwin)
extension StreamSocket {
    /// `SOCK_STREAM` as the `Int32` that `socket` and `addrinfo.ai_socktype` take.
    public static var streamType: Int32 { SOCK_STREAM }

    /// A new stream socket of `family`: close-on-exec and `SO_NOSIGPIPE` (Darwin has no
    /// `SOCK_CLOEXEC` or `MSG_NOSIGNAL`; both are set on the descriptor before it is used).
    public static func open(family: Int32, protocol: Int32 = 0) -> Int32 {
        let descriptor = socket(family, SOCK_STREAM, `protocol`)
        if descriptor >= 0 { configure(descriptor) }
        return descriptor
    }

    /// An accepted connection from listening socket `descriptor`, configured as `open` does; -1 on failure.
    public static func accept(from descriptor: Int32) -> Int32 {
        let client = Darwin.accept(descriptor, nil, nil)
        if client >= 0 { configure(client) }
        return client
    }

    private static func configure(_ descriptor: Int32) {
        _ = fcntl(descriptor, F_SETFD, FD_CLOEXEC)
        var on: Int32 = 1
        setsockopt(descriptor, SOL_SOCKET, SO_NOSIGPIPE, &on, socklen_t(MemoryLayout<Int32>.size))
    }

    /// One `send`; `SO_NOSIGPIPE` makes a closed peer an EPIPE error.
    public static func send(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
        Darwin.send(descriptor, base, count, 0)
    }

    /// Runs `body`: the socket's `SO_NOSIGPIPE` already covers writes OpenSSL makes itself.
    public static func withoutBrokenPipeSignal<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        try body()
    }

    /// Up to `count` bytes of `file` from `offset` to the socket through a read and send loop
    /// (Darwin's `sendfile` has another signature; this path is not the hot one on a Mac).
    public static func sendFile(_ file: Int32, to descriptor: Int32, offset: inout off_t, count: Int) -> Int {
        copyLoop(from: file, to: descriptor, offset: &offset, count: count)
    }
}
#endif
