internal import LanesPlatform
import Synchronization

/// The one ordered way a run's text reaches its descriptors (the terminal or a pipe, the events
/// file). A step's output lines are queued, and a thread of the queue's own writes them, many
/// lines to a write(2): once `batchBytes` have gathered, or `linger` after the first line of a
/// batch, whichever comes first. A child that prints 100 MB gets large writes instead of one per
/// line; a child that prints a line and goes quiet has it shown within `linger`. Everything else
/// lanes prints (`writeNow`) goes after what was queued before it and is written before the call
/// returns, so it stays in order with what a Lanefile prints next through C stdio.
///
/// Bounded: a producer `capacity` bytes ahead of the descriptors waits, so a child printing faster
/// than the terminal reads is slowed through its pipe and lanes' memory stays flat.
final class OutputQueue: Sendable {
    /// Where queued bytes go.
    enum Target: Sendable {
        case descriptor(Int32)
        /// Encoded output past a redacting pipe (`RedactedStandardStreams.Route.direct`).
        case direct(RedactedStandardStreams.Stream)
        /// A host's sink without a descriptor (a test host's memory).
        case sink(any OutputSink)

        func isSame(as other: Target) -> Bool {
            switch (self, other) {
            case (.descriptor(let left), .descriptor(let right)): left == right
            case (.direct(let left), .direct(let right)): left === right
            case (.sink(let left), .sink(let right)): (left as AnyObject) === (right as AnyObject)
            default: false
            }
        }

        /// Whether the order between the two matters: standard output and error may be one
        /// terminal, while another file (the events file) is read on its own.
        func sharesOrder(with other: Target) -> Bool {
            isStandard == other.isStandard && (isStandard || isSame(as: other))
        }

        private var isStandard: Bool {
            switch self {
            case .descriptor(let descriptor): descriptor == 1 || descriptor == 2
            case .direct, .sink: true
            }
        }

        /// Writes in the calling thread.
        func write(_ bytes: [UInt8]) {
            switch self {
            case .descriptor(let descriptor): FileDescriptorIO.writeAll(bytes, to: descriptor)
            case .direct(let stream): RedactedStandardStreams.writeDirect(bytes, to: stream)
            case .sink(let sink): sink.write(bytes)
            }
        }
    }

    static let defaultCapacity = 1 << 20
    /// Enough for a write(2) to cost little per byte; a pipe holds 64 KiB.
    static let batchBytes = 64 << 10
    /// Short enough that nobody sees it, long enough for a fast child to fill a batch.
    static let linger: Duration = .milliseconds(2)

    private struct Segment {
        let target: Target
        var bytes: [UInt8]
    }

    private struct State {
        var segments: [Segment] = []
        /// Bytes queued and not written yet (those the writer holds included).
        var pendingBytes = 0
        /// Bytes ever queued and ever written: a flush waits for everything queued before it.
        var queuedTotal = 0
        var takenTotal = 0
        var writtenTotal = 0
        var writer = Writer.notStarted
        /// Callers blocked in `progress.wait()`; the writer signals each once after a batch.
        var waiting = 0
    }

    private enum Writer {
        /// `idle`: waits for a first line; `lingering`: holds a small batch, waits for more;
        /// `busy`: woken, or writing.
        case notStarted, idle, lingering, busy
        /// No thread could be started: callers write in their own thread.
        case unavailable
    }

    let capacity: Int
    private let state = Mutex(State())
    /// The writer sleeps here while there is nothing to write.
    private let work = ThreadSemaphore()
    /// Callers waiting for room or for a flush sleep here.
    private let progress = ThreadSemaphore()

    init(capacity: Int = OutputQueue.defaultCapacity) {
        self.capacity = capacity
    }

    deinit {
        // Wakes an idle writer, which then finds the queue gone and ends.
        work.post()
    }

    /// Queues what `fill` appends for `target`; returns at once unless the queue is full.
    func enqueue(to target: Target, _ fill: (inout [UInt8]) -> Void) {
        while true {
            enum Next { case done(wake: Bool), wait, start, writeHere([Segment]) }
            let next: Next = state.withLock { state in
                if state.pendingBytes >= capacity, state.writer != .notStarted, state.writer != .unavailable {
                    state.waiting += 1
                    return .wait
                }
                // Joins the latest segment for the same target, unless text for another target whose
                // order with it matters came since: the terminal's lines and the events file's
                // lines each make one write, not one each in turn.
                var joined: Int?
                for index in state.segments.indices.reversed() {
                    if state.segments[index].target.isSame(as: target) { joined = index; break }
                    if state.segments[index].target.sharesOrder(with: target) { break }
                }
                if let index = joined {
                    let before = state.segments[index].bytes.count
                    fill(&state.segments[index].bytes)
                    let added = state.segments[index].bytes.count - before
                    state.pendingBytes += added
                    state.queuedTotal += added
                } else {
                    var bytes: [UInt8] = []
                    fill(&bytes)
                    state.pendingBytes += bytes.count
                    state.queuedTotal += bytes.count
                    state.segments.append(Segment(target: target, bytes: bytes))
                }
                switch state.writer {
                case .notStarted:
                    state.writer = .busy
                    return .start
                case .idle:
                    state.writer = .busy
                    return .done(wake: true)
                case .lingering where state.queuedTotal - state.takenTotal >= Self.batchBytes:
                    state.writer = .busy
                    return .done(wake: true)
                case .lingering, .busy:
                    return .done(wake: false)
                case .unavailable:
                    state.takenTotal = state.queuedTotal
                    defer { state.segments = [] }
                    return .writeHere(state.segments)
                }
            }
            switch next {
            case .done(let wake):
                if wake { work.post() }
                return
            case .wait:
                progress.wait()
            case .start:
                startWriter()
                return
            case .writeHere(let segments):
                write(segments)
                return
            }
        }
    }

    /// Waits until everything queued before the call is written.
    func flush() {
        let (goal, wake) = state.withLock { state in
            // A lingering writer writes now: someone waits for it.
            defer { if state.writer == .lingering { state.writer = .busy } }
            return (state.queuedTotal, state.writer == .lingering)
        }
        if wake { work.post() }
        while true {
            let done = state.withLock { state -> Bool in
                if state.writtenTotal >= goal { return true }
                state.waiting += 1
                return false
            }
            if done { return }
            progress.wait()
        }
    }

    /// Writes `bytes` after everything queued so far, with C stdio's buffers (what the Lanefile
    /// printed) flushed in between, and returns once they are written.
    func writeNow(_ bytes: [UInt8], to target: Target) {
        flush()
        fflush(nil)
        enqueue(to: target) { $0.append(contentsOf: bytes) }
        flush()
    }

    private func startWriter() {
        do {
            try PlatformThread.detach { [weak self, work] in
                var lingered = false
                while true {
                    switch self?.next(lingered: lingered) {
                    case nil:
                        return
                    case .sleep:
                        work.wait()
                        lingered = false
                    case .linger:
                        work.wait(timeout: Self.linger)
                        lingered = true
                    case .write(let batch):
                        self?.write(batch)
                        lingered = false
                    }
                }
            }
        } catch {
            let segments = state.withLock { state in
                state.writer = .unavailable
                state.takenTotal = state.queuedTotal
                defer { state.segments = [] }
                return state.segments
            }
            write(segments)
        }
    }

    private enum Step {
        case sleep, linger
        case write([Segment])
    }

    /// What the writer does next: sleep until a line comes, wait a little for a small batch to
    /// grow (once, and not while someone waits for it), or write what is queued.
    private func next(lingered: Bool) -> Step {
        state.withLock { state in
            if state.segments.isEmpty {
                state.writer = .idle
                return .sleep
            }
            if !lingered, state.waiting == 0, state.queuedTotal - state.takenTotal < Self.batchBytes {
                state.writer = .lingering
                return .linger
            }
            state.writer = .busy
            state.takenTotal = state.queuedTotal
            defer { state.segments = [] }
            return .write(state.segments)
        }
    }

    /// Writes segments in order, then wakes whoever waits for room or for a flush.
    private func write(_ segments: [Segment]) {
        var written = 0
        for segment in segments {
            segment.target.write(segment.bytes)
            written += segment.bytes.count
        }
        let waiting = state.withLock { state in
            state.pendingBytes -= written
            state.writtenTotal += written
            defer { state.waiting = 0 }
            return state.waiting
        }
        for _ in 0..<waiting { progress.post() }
    }
}
