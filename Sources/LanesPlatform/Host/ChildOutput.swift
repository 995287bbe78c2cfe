
/// Which of a child's streams a chunk came from.
public enum ChildStream: Sendable, Equatable {
    case standardOutput, standardError
}

/// A piece of a child's output, as it was read.
public struct ChildOutputChunk: Sendable, Equatable {
    public let stream: ChildStream
    public let bytes: [UInt8]

    public init(stream: ChildStream, bytes: [UInt8]) {
        self.stream = stream
        self.bytes = bytes
    }
}

/// A child's output as an async sequence with back-pressure: the host stops reading the child's
/// pipes while `capacity` bytes wait here unread, so a child printing faster than the program
/// consumes is slowed through its pipe and memory stays flat. One consumer.
public final class ChildOutput: AsyncSequence, Sendable {
    public typealias Element = ChildOutputChunk

    public static let defaultCapacity = 1 << 20
    /// Chunks already handed out that stay in the buffer's array before it is compacted.
    static let consumedChunksKept = 16

    private struct State {
        var chunks: [ChildOutputChunk] = []
        var head = 0
        var bytes = 0
        var finished = false
        var waiter: CheckedContinuation<ChildOutputChunk?, Never>?
    }

    private let state = PlatformMutex(State())
    let capacity: Int
    /// Called when a full buffer has room again (the host reads the pipes again).
    private let onRoom: @Sendable () -> Void

    public init(capacity: Int = ChildOutput.defaultCapacity, onRoom: @escaping @Sendable () -> Void = {}) {
        self.capacity = capacity
        self.onRoom = onRoom
    }

    /// Adds a chunk; false when the buffer is now full and the producer should pause.
    @discardableResult
    public func yield(_ chunk: ChildOutputChunk) -> Bool {
        let (waiter, hasRoom): (CheckedContinuation<ChildOutputChunk?, Never>?, Bool) = state.withLock { state in
            guard !state.finished else { return (nil, true) }
            if let waiter = state.waiter {
                state.waiter = nil
                return (waiter, true)
            }
            state.chunks.append(chunk)
            state.bytes += chunk.bytes.count
            return (nil, state.bytes < capacity)
        }
        waiter?.resume(returning: chunk)
        return hasRoom
    }

    /// Chunks the buffer holds, those handed out and not compacted away yet included.
    var heldChunks: Int { state.withLock { $0.chunks.count } }

    /// Whether the producer may read more now.
    public var hasRoom: Bool { state.withLock { $0.bytes < capacity } }

    /// No more chunks will come.
    public func finish() {
        let waiter = state.withLock { state -> CheckedContinuation<ChildOutputChunk?, Never>? in
            state.finished = true
            defer { state.waiter = nil }
            return state.waiter
        }
        waiter?.resume(returning: nil)
    }

    func next() async -> ChildOutputChunk? {
        await withCheckedContinuation { continuation in
            let (ready, done, freed): (ChildOutputChunk?, Bool, Bool) = state.withLock { state in
                if state.head < state.chunks.count {
                    let chunk = state.chunks[state.head]
                    let wasFull = state.bytes >= capacity
                    state.head += 1
                    state.bytes -= chunk.bytes.count
                    if state.head == state.chunks.count {
                        state.chunks.removeAll(keepingCapacity: true)
                        state.head = 0
                    } else if state.head >= Self.consumedChunksKept {
                        // A child that prints without pause keeps the buffer from ever emptying:
                        // chunks read already go, or the whole output would stay in memory.
                        state.chunks.removeFirst(state.head)
                        state.head = 0
                    }
                    return (chunk, false, wasFull && state.bytes < capacity)
                }
                if state.finished { return (nil, true, false) }
                state.waiter = continuation
                return (nil, false, false)
            }
            if freed { onRoom() }
            if let ready { continuation.resume(returning: ready) } else if done { continuation.resume(returning: nil) }
        }
    }

    public struct AsyncIterator: AsyncIteratorProtocol {
        let output: ChildOutput
        public mutating func next() async -> ChildOutputChunk? { await output.next() }
    }

    public func makeAsyncIterator() -> AsyncIterator { AsyncIterator(output: self) }
}

/// A child's end: its status once reaped, and whoever waits for it.
public final class ChildEnding: Sendable {
    private let state = PlatformMutex<(status: WaitStatus?, waiters: [CheckedContinuation<WaitStatus, Never>])>((nil, []))

    public init() {}

    public var current: WaitStatus? { state.withLock { $0.status } }

    /// Records the status (once) and wakes the waiters.
    public func end(_ status: WaitStatus) {
        let waiters = state.withLock { state -> [CheckedContinuation<WaitStatus, Never>] in
            guard state.status == nil else { return [] }
            state.status = status
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume(returning: status) }
    }

    public func wait() async -> WaitStatus {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> WaitStatus? in
                if let status = state.status { return status }
                state.waiters.append(continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
