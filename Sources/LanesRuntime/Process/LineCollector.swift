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

    public var lines: [String] { storage.withLock { $0.lines } }
    /// Lines that came after the limit was reached.
    public var droppedCount: Int { storage.withLock { $0.dropped } }
}
