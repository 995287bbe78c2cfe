import Synchronization

/// On a terminal, a status line under a step that has run longer than `threshold`, rewritten in place
/// each second, so a 20-minute archive does not look hung. Every other line lanes prints goes through
/// `write`, which erases the status line first, so the two never mix.
final class ElapsedIndicator: Sendable {
    private struct State {
        var label: String?
        var started = ContinuousClock.now
        var shown = false
    }

    let output: TextOutput
    let threshold: Duration
    private let state = Mutex(State())

    init(output: TextOutput, threshold: Duration = .seconds(5)) {
        self.output = output
        self.threshold = threshold
    }

    func stepStarted(_ label: String, at instant: ContinuousClock.Instant) {
        state.withLock { $0 = State(label: label, started: instant, shown: $0.shown) }
    }

    func stepEnded() {
        state.withLock { state in
            erase(&state)
            state.label = nil
        }
    }

    /// Writes `text` below the status line's place; the next tick draws the status line again.
    func write(_ text: String) {
        state.withLock { state in
            erase(&state)
            output.write(text)
        }
    }

    /// `write` for a step's output lines, which may be queued with the lines around them.
    func writeOutputLines(_ lines: OutputLines) {
        state.withLock { state in
            erase(&state)
            output.writeOutputLines(lines)
        }
    }

    /// Draws the status line when the current step has run for `threshold` or longer.
    func tick(at now: ContinuousClock.Instant) {
        state.withLock { state in
            guard let label = state.label, now - state.started >= threshold else { return }
            output.write("\r\u{1B}[K    \(label): running for \(Self.clock(now - state.started))")
            state.shown = true
        }
    }

    /// `0:07`, `12:03`, `1:02:03`.
    static func clock(_ duration: Duration) -> String {
        let total = Int(duration.components.seconds)
        let (hours, minutes, seconds) = (total / 3600, total / 60 % 60, total % 60)
        func two(_ value: Int) -> String { value < 10 ? "0\(value)" : "\(value)" }
        return hours > 0 ? "\(hours):\(two(minutes)):\(two(seconds))" : "\(minutes):\(two(seconds))"
    }

    private func erase(_ state: inout State) {
        guard state.shown else { return }
        output.write("\r\u{1B}[K")
        state.shown = false
    }
}

/// Calls `tick` on an indicator once a second for as long as it lives.
final class ElapsedTicker: Sendable {
    private let task: Task<Void, Never>

    init(_ indicator: ElapsedIndicator) {
        task = Task.detached {
            while !Task.isCancelled {
                try? await Task.sleep(for: .seconds(1))
                indicator.tick(at: .now)
            }
        }
    }

    deinit { task.cancel() }
}
