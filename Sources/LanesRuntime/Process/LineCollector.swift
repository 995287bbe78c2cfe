import Synchronization

/// Lines gathered from a child process, appended from the streaming callback. With a byte limit,
/// lines past it are counted, not kept: a child printing gigabytes cannot fill lanes' memory.
public final class LineCollector: Sendable {
    private struct Collected {
        var lines: [String] = []
        var bytes = 0
        var dropped = 0
    }
    private let storage = Mutex(Collected())
    private let byteLimit: Int

    public init(byteLimit: Int = .max) {
        self.byteLimit = byteLimit
    }

    public func append(_ line: String) {
        storage.withLock { collected in
            guard collected.dropped == 0, collected.bytes + line.utf8.count <= byteLimit else {
                collected.dropped += 1
                return
            }
            collected.bytes += line.utf8.count
            collected.lines.append(line)
        }
    }

    /// `append` for complete lines as a child printed them, each ending in `\n` (a `\r` before it
    /// dropped), as `LineSplitter` hands them over: past the limit, lines are only counted.
    /// - Parameter count: how many lines `raw` holds, when the caller counted them already: past
    ///   the limit they are then counted without looking at the bytes again.
    func append(lines raw: UnsafeBufferPointer<UInt8>, count: Int? = nil) {
        storage.withLock { collected in
            if collected.dropped > 0, let count {
                collected.dropped += count
                return
            }
            var start = 0
            while start < raw.count {
                let newline = OutputLines.lineEnd(in: raw, from: start)
                defer { start = newline + 1 }
                var end = newline
                if end > start, raw[end - 1] == UInt8(ascii: "\r") { end -= 1 }
                guard collected.dropped == 0, collected.bytes + (end - start) <= byteLimit else {
                    collected.dropped += 1
                    continue
                }
                let line = String(decoding: UnsafeBufferPointer(rebasing: raw[start..<end]), as: UTF8.self)
                collected.bytes += line.utf8.count
                collected.lines.append(line)
            }
        }
    }

    /// `append` for a batch of lines (`StepLog` hands over what it redacted for the log).
    func append(redactedLines lines: [String]) {
        storage.withLock { collected in
            for line in lines {
                guard collected.dropped == 0, collected.bytes + line.utf8.count <= byteLimit else {
                    collected.dropped += 1
                    continue
                }
                collected.bytes += line.utf8.count
                collected.lines.append(line)
            }
        }
    }

    /// Whether lines are only counted now (the limit was reached).
    var isFull: Bool { storage.withLock { $0.dropped > 0 } }

    /// Counts `count` lines past the limit without looking at them.
    func countDropped(_ count: Int) {
        storage.withLock { $0.dropped += count }
    }

    public var lines: [String] { storage.withLock { $0.lines } }

    /// The lines, collected redacted; redacted again only when a secret registered since the
    /// collection started (another task of the lane), which the first lines did not know of.
    func lines(redactedBy redactor: Redactor, secretsWhenStarted: Int) -> [String] {
        let lines = self.lines
        return redactor.registeredCount == secretsWhenStarted ? lines : lines.map(redactor.redact)
    }
    /// Lines that came after the limit was reached.
    public var droppedCount: Int { storage.withLock { $0.dropped } }
}
