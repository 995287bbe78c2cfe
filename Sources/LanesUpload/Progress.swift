import Synchronization
internal import LanesPlatform

/// Hears how far an upload is. Called from several threads; implementations serialise themselves.
public protocol ProgressReporter: Sendable {
    func start(name: String, total: Int64)
    func update(completed: Int64, total: Int64)
    func finish(completed: Int64, total: Int64)
}

/// Says nothing (for `--json` and for steps that report on their own).
public struct SilentProgress: ProgressReporter {
    public init() {}
    public func start(name: String, total: Int64) {}
    public func update(completed: Int64, total: Int64) {}
    public func finish(completed: Int64, total: Int64) {}
}

/// The progress reporter for a stream: a redrawn bar with rate and ETA on a terminal, a line
/// every 10% otherwise (CI logs).
public func progressReporter(writingTo descriptor: Int32 = 2, clock: @escaping @Sendable () -> Double = monotonicSeconds) -> any ProgressReporter {
    let write: @Sendable (String) -> Void = { text in _ = text.withCString { LanesPlatform.write(descriptor, $0, strlen($0)) } }
    return isatty(descriptor) == 1 ? TerminalProgressBar(write: write, clock: clock) : PercentLines(write: write)
}

/// "name: 40% (410 MB of 1.0 GB)" at every tenth.
public final class PercentLines: ProgressReporter {
    private let write: @Sendable (String) -> Void
    private let state = Mutex<(name: String, lastTenth: Int)>(("", -1))

    public init(write: @escaping @Sendable (String) -> Void) { self.write = write }

    public func start(name: String, total: Int64) {
        state.withLock { $0 = (name, 0) }
        write("\(name): uploading \(ByteCount.text(total))\n")
    }

    public func update(completed: Int64, total: Int64) {
        guard total > 0 else { return }
        let tenth = Int(completed * 10 / total)
        let line: String? = state.withLock { value in
            guard tenth > value.lastTenth, tenth < 10 else { return nil }
            value.lastTenth = tenth
            return "\(value.name): \(tenth * 10)% (\(ByteCount.text(completed)) of \(ByteCount.text(total)))\n"
        }
        if let line { write(line) }
    }

    public func finish(completed: Int64, total: Int64) {
        let name = state.withLock { $0.name }
        write("\(name): 100% (\(ByteCount.text(completed)))\n")
    }
}

/// `name [#####-----]  45%  12.3 MB/s  ETA 0:07`, redrawn at most ten times a second.
public final class TerminalProgressBar: ProgressReporter {
    private let write: @Sendable (String) -> Void
    private let clock: @Sendable () -> Double
    private let state = Mutex<(name: String, started: Double, lastDraw: Double)>(("", 0, -1))

    public init(write: @escaping @Sendable (String) -> Void, clock: @escaping @Sendable () -> Double) {
        self.write = write
        self.clock = clock
    }

    public func start(name: String, total: Int64) {
        let now = clock()
        state.withLock { $0 = (name, now, -1) }
    }

    public func update(completed: Int64, total: Int64) {
        let now = clock()
        let line: String? = state.withLock { value in
            guard now - value.lastDraw >= 0.1 else { return nil }
            value.lastDraw = now
            return Self.line(name: value.name, completed: completed, total: total, elapsed: now - value.started)
        }
        if let line { write("\r" + line + "\u{1B}[K") }
    }

    public func finish(completed: Int64, total: Int64) {
        let now = clock()
        let (name, started) = state.withLock { ($0.name, $0.started) }
        write("\r" + Self.line(name: name, completed: completed, total: total, elapsed: now - started) + "\u{1B}[K\n")
    }

    /// One frame of the bar (public for its tests).
    public static func line(name: String, completed: Int64, total: Int64, elapsed: Double) -> String {
        let fraction = total > 0 ? min(1, Double(completed) / Double(total)) : 1
        let width = 24
        let filled = Int(fraction * Double(width))
        let bar = String(repeating: "#", count: filled) + String(repeating: "-", count: width - filled)
        let rate = elapsed > 0 ? Double(completed) / elapsed : 0
        let eta = rate > 0 ? Int(Double(total - completed) / rate) : 0
        let percent = String(Int(fraction * 100))
        return "\(name) [\(bar)] \(String(repeating: " ", count: 3 - percent.count))\(percent)%  \(ByteCount.text(Int64(rate)))/s  ETA \(eta / 60):\(eta % 60 < 10 ? "0" : "")\(eta % 60)"
    }
}

/// A byte count for people: "1.4 GB" (powers of 1000, as the progress lines say).
public enum ByteCount {
    public static func text(_ bytes: Int64) -> String {
        let units = ["B", "KB", "MB", "GB", "TB"]
        var value = Double(bytes)
        var unit = 0
        while value >= 1000 && unit < units.count - 1 { value /= 1000; unit += 1 }
        if unit == 0 { return "\(bytes) B" }
        let tenths = Int((value * 10).rounded())
        return "\(tenths / 10).\(tenths % 10) \(units[unit])"
    }
}

@Sendable public func monotonicSeconds() -> Double {
    var time = timespec()
    clock_gettime(CLOCK_MONOTONIC, &time)
    return Double(time.tv_sec) + Double(time.tv_nsec) / 1e9
}

/// Counts bytes sent from several threads and forwards the total to a reporter.
final class TransferCounter: Sendable {
    let total: Int64
    private let completed = Atomic<Int64>(0)
    private let reporter: any ProgressReporter

    init(name: String, total: Int64, reporter: any ProgressReporter) {
        self.total = total
        self.reporter = reporter
        reporter.start(name: name, total: total)
    }

    /// Adds `delta` bytes (negative when a failed attempt is taken back).
    func add(_ delta: Int64) {
        let now = completed.add(delta, ordering: .relaxed).newValue
        reporter.update(completed: now, total: total)
    }

    func finish() { reporter.finish(completed: completed.load(ordering: .relaxed), total: total) }
}
