import Synchronization
internal import LanesPlatform

/// Receives a step's output lines. Every line is redacted before it reaches the sink, and the
/// last lines are kept so that a failure can show what led to it.
///
/// The one place a step's output is redacted and made visible: what leaves it (`OutputLines`, or a
/// line for a per-line sink) is written by the reporters as it is.
public final class StepLog: Sendable {
    public typealias Sink = @Sendable (String) -> Void
    public typealias BatchSink = @Sendable (OutputLines) -> Void
    private let redactor: Redactor
    private let sink: BatchSink
    private let tailLimit: Int
    private let tail = Mutex(Tail())

    /// The last lines, in a ring: a line costs one store, however many came before.
    private struct Tail {
        var lines: [String] = []
        var next = 0

        mutating func append(_ line: String, limit: Int) {
            if lines.count < limit {
                lines.append(line)
            } else if limit > 0 {
                lines[next] = line
                next = (next + 1) % limit
            }
        }

        var inOrder: [String] { Array(lines[next...] + lines[..<next]) }
    }

    /// A log whose sink takes one line at a time.
    public convenience init(redactor: Redactor, tailLimit: Int = 20, sink: @escaping Sink) {
        self.init(redactor: redactor, tailLimit: tailLimit, batches: { batch in
            for line in batch.lines { sink(line) }
        })
    }

    /// A log whose sink takes the lines in batches (the reporters: one write for many lines).
    public static func batching(redactor: Redactor, tailLimit: Int = 20, to sink: @escaping BatchSink) -> StepLog {
        StepLog(redactor: redactor, tailLimit: tailLimit, batches: sink)
    }

    private init(redactor: Redactor, tailLimit: Int, batches: @escaping BatchSink) {
        self.redactor = redactor
        self.sink = batches
        self.tailLimit = tailLimit
    }

    /// Lines come from children and files, so control characters never reach the terminal raw.
    public func line(_ text: String) {
        line(text, collectingInto: nil)
    }

    /// `line`, with the redacted line (not made visible) kept in `collector` too.
    func line(_ text: String, collectingInto collector: LineCollector?) {
        let redacted = redactor.redact(text)
        collector?.append(redacted)
        let safe = TerminalText.visible(redacted)
        tail.withLock { $0.append(safe, limit: tailLimit) }
        sink(OutputLines(bytes: Array((safe + "\n").utf8), count: 1))
    }

    /// Complete lines as a child printed them, each ending in `\n` (a `\r` before it is dropped):
    /// redacted line by line, as `line` does, in one batch. A line of printable ASCII (nearly every
    /// line of a build log) is checked eight bytes at a time and copied; any other line takes
    /// `line`'s way (decoded, redacted, made visible), so both give the same text.
    /// `collector` (a step's result, `sh`'s) gets the same lines redacted, not made visible: a
    /// printable ASCII line is the same either way and is taken from what was masked for the log,
    /// so no line is redacted twice; past the collector's limit, lines are only counted.
    /// Returns how many lines there were.
    @discardableResult
    func lines(_ raw: UnsafeBufferPointer<UInt8>, collectingInto collector: LineCollector? = nil) -> Int {
        guard !raw.isEmpty else { return 0 }
        let matcher = redactor.currentMatcher
        var out: [UInt8] = []
        out.reserveCapacity(raw.count + 64)
        // Lines that go on as they came (printable ASCII, nothing masked, no CR: nearly every line
        // of a build log) are copied in runs, one append for many lines: the run not copied yet
        // starts at `runStart` in `raw`.
        var runStart = 0
        var collected: [String]? = collector.map { $0.isFull ? nil : [] } ?? nil
        // Where the last `tailLimit` lines start in `out`, in a ring.
        var tailStarts = [Int](repeating: 0, count: max(tailLimit, 1))
        var count = 0
        var start = 0
        while start < raw.count {
            let newline = OutputLines.lineEnd(in: raw, from: start)
            var end = newline
            if end > start, raw[end - 1] == UInt8(ascii: "\r") { end -= 1 }
            let line = UnsafeBufferPointer(rebasing: raw[start..<end])
            tailStarts[count % tailStarts.count] = out.count + (start - runStart)
            defer {
                count += 1
                start = newline + 1
            }
            let printable = TerminalText.isPrintableASCII(line)
            let masked = printable ? matcher?.masked(line) : nil
            if printable, masked == nil, end == newline, newline < raw.count {
                collected?.append(String(decoding: line, as: UTF8.self))
                continue
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: raw[runStart..<start]))
            runStart = newline + 1
            if printable {
                let lineStart = out.count
                if let masked {
                    out.append(contentsOf: masked)
                } else {
                    out.append(contentsOf: line)
                }
                collected?.append(String(decoding: out[lineStart...], as: UTF8.self))
            } else {
                let redacted = redactor.redact(String(decoding: line, as: UTF8.self))
                out.append(contentsOf: TerminalText.visible(redacted).utf8)
                collected?.append(redacted)
            }
            out.append(UInt8(ascii: "\n"))
        }
        if runStart < raw.count { out.append(contentsOf: UnsafeBufferPointer(rebasing: raw[runStart...])) }
        let kept = min(count, tailLimit)
        if kept > 0 {
            var last: [String] = []
            for number in (count - kept)..<count {
                let from = tailStarts[number % tailStarts.count]
                let to = number == count - 1 ? out.count - 1 : tailStarts[(number + 1) % tailStarts.count] - 1
                last.append(String(decoding: out[from..<to], as: UTF8.self))
            }
            tail.withLock { tail in for line in last { tail.append(line, limit: tailLimit) } }
        }
        if let collected {
            collector?.append(redactedLines: collected)
        } else {
            collector?.countDropped(count)
        }
        sink(OutputLines(bytes: out, count: count))
        return count
    }

    /// The last lines written, already redacted.
    public var lastLines: [String] { tail.withLock { $0.inOrder } }
}
