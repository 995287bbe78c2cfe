internal import LanesPlatform

/// Lines of a step's output on their way to the reporters, as one batch (the lines one read of a
/// child brought): redacted, control characters shown visibly, valid UTF-8, each line followed by
/// `\n`. Only `StepLog` makes them, so a reporter writes the bytes as they are: nothing in them is
/// redacted again, scanned again or cut into `String`s unless a reporter keeps lines.
public struct OutputLines: Sendable {
    /// The lines' bytes, each line ending in `\n`.
    public let bytes: [UInt8]
    /// How many lines.
    public let count: Int

    init(bytes: [UInt8], count: Int) {
        self.bytes = bytes
        self.count = count
    }

    /// Calls `body` with each line's bytes, without its line end.
    public func forEachLine(_ body: (UnsafeBufferPointer<UInt8>) -> Void) {
        bytes.withUnsafeBufferPointer { all in
            var start = 0
            while start < all.count {
                let end = OutputLines.lineEnd(in: all, from: start)
                body(UnsafeBufferPointer(rebasing: all[start..<end]))
                start = end + 1
            }
        }
    }

    /// The lines as text, for reporters that keep them.
    public var lines: [String] {
        var lines: [String] = []
        lines.reserveCapacity(count)
        forEachLine { lines.append(String(decoding: $0, as: UTF8.self)) }
        return lines
    }

    /// The offset of the first `\n` at or after `start`, or the end (memchr, not a loop over bytes).
    @inline(__always)
    static func lineEnd(in bytes: UnsafeBufferPointer<UInt8>, from start: Int) -> Int {
        guard let base = bytes.baseAddress, start < bytes.count,
              let found = memchr(base + start, 0x0A, bytes.count - start) else { return bytes.count }
        return UnsafeRawPointer(found) - UnsafeRawPointer(base)
    }
}
