internal import CGit2

/// Inflates the beginning of zlib streams, one after another, reusing one zlib state and its
/// window (setting them up afresh for each of 100,000 commits costs more than the inflating).
final class HeaderInflater {
    private var stream = z_stream()
    private var output: UnsafeMutableRawBufferPointer
    private let ready: Bool
    private var needsReset = false

    init() {
        output = .allocate(byteCount: 4096, alignment: 1)
        ready = lanes_inflate_init(&stream) == Z_OK
    }

    deinit {
        if ready { inflateEnd(&stream) }
        output.deallocate()
    }

    /// Inflates `input` in growing steps, offering the text so far to `parse` after each, until
    /// it answers (true: done, false: malformed). False also when the stream ends or breaks first.
    func inflate(_ input: UnsafeRawBufferPointer, _ parse: (UnsafeRawBufferPointer) -> Bool?) -> Bool {
        guard ready, let base = input.baseAddress else { return false }
        if needsReset { inflateReset(&stream) }
        needsReset = true
        stream.next_in = UnsafeMutablePointer(mutating: base.assumingMemoryBound(to: UInt8.self))
        stream.avail_in = UInt32(clamping: input.count)
        var produced = 0
        // At least 258 bytes of room lets zlib take its fast path; most commit headers fit.
        var step = 512
        while true {
            let room = min(step, output.count - produced)
            stream.next_out = output.baseAddress!.assumingMemoryBound(to: UInt8.self) + produced
            stream.avail_out = UInt32(room)
            let status = CGit2.inflate(&stream, Z_SYNC_FLUSH)
            produced += room - Int(stream.avail_out)
            if let done = parse(UnsafeRawBufferPointer(rebasing: output[..<produced])) { return done }
            guard status == Z_OK, produced < output.count else { return false }
            step *= 2
        }
    }
}
