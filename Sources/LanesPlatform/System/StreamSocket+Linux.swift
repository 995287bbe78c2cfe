#if os(Linux)
extension StreamSocket {
    /// `SOCK_STREAM` as the `Int32` that `socket` and `addrinfo.ai_socktype` take (glibc imports it as an enum).
    public static var streamType: Int32 { Int32(SOCK_STREAM.rawValue) }

    /// A new stream socket of `family`, close-on-exec from the start.
    public static func open(family: Int32, protocol: Int32 = 0) -> Int32 {
        socket(family, streamType | Int32(SOCK_CLOEXEC.rawValue), `protocol`)
    }

    /// An accepted connection, close-on-exec, from listening socket `descriptor`; -1 on failure.
    /// (Glibc's module does not export `accept4`; lanes starts children with posix_spawn from one
    /// thread at a time, so the flag set right after is in time.)
    public static func accept(from descriptor: Int32) -> Int32 {
        let client = Glibc.accept(descriptor, nil, nil)
        if client >= 0 { _ = fcntl(client, F_SETFD, FD_CLOEXEC) }
        return client
    }

    /// One `send` that reports a closed peer as EPIPE instead of raising SIGPIPE.
    public static func send(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Int {
        Glibc.send(descriptor, base, count, Int32(MSG_NOSIGNAL))
    }

    /// Runs `body`, which writes to a socket through a library that calls `write` itself (OpenSSL),
    /// with SIGPIPE blocked in this thread only; a SIGPIPE the write raised is taken back before the
    /// mask is restored, so the write fails with EPIPE and nothing else in the process changes.
    public static func withoutBrokenPipeSignal<Result, Failure: Error>(_ body: () throws(Failure) -> Result) throws(Failure) -> Result {
        var pipeOnly = sigset_t()
        sigemptyset(&pipeOnly)
        sigaddset(&pipeOnly, SIGPIPE)
        var pendingBefore = sigset_t()
        sigpending(&pendingBefore)
        let wasPending = sigismember(&pendingBefore, SIGPIPE) == 1
        var previous = sigset_t()
        pthread_sigmask(SIG_BLOCK, &pipeOnly, &previous)
        defer {
            var pending = sigset_t()
            sigpending(&pending)
            if !wasPending, sigismember(&pending, SIGPIPE) == 1 {
                var none = timespec(tv_sec: 0, tv_nsec: 0)
                let saved = errno
                _ = sigtimedwait(&pipeOnly, nil, &none)
                errno = saved
            }
            pthread_sigmask(SIG_SETMASK, &previous, nil)
        }
        return try body()
    }

    /// Up to `count` bytes of `file` from `offset` to the socket, copied by the kernel (`sendfile`);
    /// advances `offset`; the bytes sent, 0 at the file's end, -1 on error.
    public static func sendFile(_ file: Int32, to descriptor: Int32, offset: inout off_t, count: Int) -> Int {
        // Linux's sendfile does not raise SIGPIPE when called with SIGPIPE blocked.
        withoutBrokenPipeSignal { sendfile(descriptor, file, &offset, count) }
    }
}
#endif
