/// TCP sockets as lanes uses them: close-on-exec (a lane started meanwhile must not hold them) and
/// never raising SIGPIPE, per socket rather than for the whole process: a peer that goes away fails
/// the write with EPIPE. Linux passes `MSG_NOSIGNAL` on each send; Darwin sets `SO_NOSIGPIPE` on
/// the socket. The calls differ per OS, so each lives in its `+Linux`/`+Darwin` file.
public enum StreamSocket {
    /// Writes all of `count` bytes; false once the peer has gone or the send timed out (errno says which).
    public static func sendAll(_ descriptor: Int32, _ base: UnsafeRawPointer, _ count: Int) -> Bool {
        var offset = 0
        while offset < count {
            let written = send(descriptor, base + offset, count - offset)
            if written < 0, errno == EINTR { continue }
            guard written > 0 else { return false }
            offset += written
        }
        return true
    }

    /// Copies `count` bytes of `file` from `offset` to the socket with one `read` and `send` loop
    /// (Linux overrides with `sendfile`); returns the bytes sent, 0 at the file's end, -1 on error.
    static func copyLoop(from file: Int32, to descriptor: Int32, offset: inout off_t, count: Int) -> Int {
        var block = [UInt8](repeating: 0, count: min(count, 256 << 10))
        let read = block.withUnsafeMutableBytes { pread(file, $0.baseAddress, $0.count, offset) }
        guard read > 0 else { return read }
        let sent = block.withUnsafeBytes { send(descriptor, $0.baseAddress!, read) }
        if sent > 0 { offset += off_t(sent) }
        return sent
    }
}
