internal import LanesPlatform

/// A file descriptor lanes writes text to. Every write is redacted: this is the last gate
/// before text leaves the process, so nothing printed by lanes can carry a secret.
public struct TextOutput: Sendable {
    /// The descriptor written to, or -1 when `sink` (a host's sink without one) takes the text.
    let descriptor: Int32
    let sink: (any OutputSink)?
    let redactor: Redactor
    /// While a lane runs, the process's own streams may be pipes that redact what a Lanefile
    /// prints; lanes' output, already redacted, goes past them (see `RedactedStandardStreams`).
    let streams: RedactedStandardStreams?

    public init(descriptor: Int32, redactor: Redactor) {
        self.init(descriptor: descriptor, redactor: redactor, streams: nil)
    }

    init(descriptor: Int32, redactor: Redactor, streams: RedactedStandardStreams?) {
        self.init(descriptor: descriptor, sink: nil, redactor: redactor, streams: streams)
    }

    /// Text for a host's sink: its descriptor when it has one (the terminal, a pipe), else the sink
    /// itself (a test host's memory).
    init(sink: any OutputSink, redactor: Redactor, streams: RedactedStandardStreams?) {
        if let descriptor = sink.descriptor {
            self.init(descriptor: descriptor, sink: nil, redactor: redactor, streams: streams)
        } else {
            self.init(descriptor: -1, sink: sink, redactor: redactor, streams: streams)
        }
    }

    private init(descriptor: Int32, sink: (any OutputSink)?, redactor: Redactor, streams: RedactedStandardStreams?) {
        self.descriptor = descriptor
        self.sink = sink
        self.redactor = redactor
        self.streams = streams
    }

    public static func standardOutput(_ redactor: Redactor) -> TextOutput { TextOutput(descriptor: 1, redactor: redactor) }
    public static func standardError(_ redactor: Redactor) -> TextOutput { TextOutput(descriptor: 2, redactor: redactor) }

    public var isTerminal: Bool { sink?.isTerminal ?? (isatty(descriptor) == 1) }

    /// Where this output's bytes go in the queue, or when written at once.
    private var plainTarget: OutputQueue.Target { sink.map { .sink($0) } ?? .descriptor(descriptor) }

    /// Writes `text` now: after everything lanes queued before it, and before anything the
    /// Lanefile prints next.
    public func write(_ text: String) {
        let (bytes, target) = prepared(text)
        if let queue = streams?.queue {
            queue.writeNow(bytes, to: target)
        } else {
            // A Lanefile's `print` goes through C stdio, which buffers when output is not a terminal:
            // flush it first, so its lines and lanes' own stay in the order they were written.
            fflush(nil)
            target.write(bytes)
        }
    }

    public func writeLine(_ text: String) { write(text + "\n") }

    /// Writes a line that an encoder (JSON, XML) built from parts it redacted one by one. Redacting
    /// the encoded text again could break its structure when a secret is `"` or `1`, so it is not.
    public func writeEncodedLine(_ text: String) {
        let bytes = Array((text + "\n").utf8)
        if let queue = streams?.queue {
            queue.writeNow(bytes, to: encodedTarget)
        } else {
            fflush(nil)
            encodedTarget.write(bytes)
        }
    }

    /// A line of a step's output (a child's, mostly): queued, and written with the lines around it
    /// in one write (see `OutputQueue`). Redacted here, line by line, unless a redacting pipe is the
    /// last gate.
    func writeOutputLine(_ text: String) {
        guard let queue = streams?.queue else { return writeLine(text) }
        switch streams?.route(for: descriptor) ?? .plain {
        case .plain: Self.enqueueLine(redactor.redact(text), to: plainTarget, in: queue)
        case .throughPipe: Self.enqueueLine(text, to: plainTarget, in: queue)
        case .direct(let stream): Self.enqueueLine(redactor.redact(text), to: .direct(stream), in: queue)
        }
    }

    /// A batch of a step's output lines, queued and written with the lines around them in one write
    /// (see `OutputQueue`). Not redacted again: only `StepLog` makes `OutputLines`, redacted. While
    /// a redacting pipe stands in for the descriptor, the batch goes past it to the real one, after
    /// what the Lanefile printed before it (as encoded output does).
    func writeOutputLines(_ lines: OutputLines) {
        guard let queue = streams?.queue else {
            fflush(nil)
            plainTarget.write(lines.bytes)
            return
        }
        let target: OutputQueue.Target = switch streams?.route(for: descriptor) ?? .plain {
        case .plain: plainTarget
        case .throughPipe(let stream), .direct(let stream): .direct(stream)
        }
        queue.enqueue(to: target) { $0.append(contentsOf: lines.bytes) }
    }

    /// `writeEncodedLine` for lines of a step's output, which `encode` appends as bytes, each with
    /// its line end: queued like `writeOutputLines`.
    func writeEncodedOutputLines(_ encode: (inout [UInt8]) -> Void) {
        guard let queue = streams?.queue else {
            var bytes: [UInt8] = []
            encode(&bytes)
            fflush(nil)
            return encodedTarget.write(bytes)
        }
        queue.enqueue(to: encodedTarget, encode)
    }

    private static func enqueueLine(_ text: String, to target: OutputQueue.Target, in queue: OutputQueue) {
        queue.enqueue(to: target) { bytes in
            bytes.append(contentsOf: text.utf8)
            bytes.append(UInt8(ascii: "\n"))
        }
    }

    /// The bytes to write for `text` and where they go.
    private func prepared(_ text: String) -> ([UInt8], OutputQueue.Target) {
        switch streams?.route(for: descriptor) ?? .plain {
        case .plain: (Array(redactor.redact(text).utf8), plainTarget)
        case .throughPipe: (Array(text.utf8), plainTarget)  // the pipe's reader redacts: one pass, not two
        case .direct(let stream): (Array(redactor.redact(text).utf8), .direct(stream))
        }
    }

    private var encodedTarget: OutputQueue.Target {
        if case .direct(let stream) = streams?.route(for: descriptor) ?? .plain { return .direct(stream) }
        return plainTarget
    }
}
