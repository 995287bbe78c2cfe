import Synchronization
internal import LanesPlatform

/// Receives a step's output lines. Every line is redacted before it reaches the sink, and the
/// last lines are kept so that a failure can show what led to it.
public final class StepLog: Sendable {
    public typealias Sink = @Sendable (String) -> Void
    private let redactor: Redactor
    private let sink: Sink
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

    public init(redactor: Redactor, tailLimit: Int = 20, sink: @escaping Sink) {
        self.redactor = redactor
        self.sink = sink
        self.tailLimit = tailLimit
    }

    /// Lines come from children and files, so control characters never reach the terminal raw.
    public func line(_ text: String) {
        let safe = TerminalText.visible(redactor.redact(text))
        tail.withLock { $0.append(safe, limit: tailLimit) }
        sink(safe)
    }

    /// The last lines written, already redacted.
    public var lastLines: [String] { tail.withLock { $0.inOrder } }
}
