import Synchronization

/// Lines gathered from a child process, appended from the streaming callback.
public final class LineCollector: Sendable {
    private let storage = Mutex<[String]>([])

    public init() {}
    public func append(_ line: String) { storage.withLock { $0.append(line) } }
    public var lines: [String] { storage.withLock { $0 } }
}
