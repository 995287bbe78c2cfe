import Synchronization

/// Receives a step's output lines. Every line is redacted before it reaches the sink, and the
/// last lines are kept so that a failure can show what led to it.
public final class StepLog: Sendable {
    public typealias Sink = @Sendable (String) -> Void
    private let redactor: Redactor
    private let sink: Sink
    private let tailLimit: Int
    private let tail = Mutex<[String]>([])

    public init(redactor: Redactor, tailLimit: Int = 20, sink: @escaping Sink) {
        self.redactor = redactor
        self.sink = sink
        self.tailLimit = tailLimit
    }

    /// Lines come from children and files, so control characters never reach the terminal raw.
    public func line(_ text: String) {
        let safe = TerminalText.visible(redactor.redact(text))
        tail.withLock { lines in
            lines.append(safe)
            if lines.count > tailLimit { lines.removeFirst(lines.count - tailLimit) }
        }
        sink(safe)
    }

    /// The last lines written, already redacted.
    public var lastLines: [String] { tail.withLock { $0 } }
}
