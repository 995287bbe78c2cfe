public import LanesPlatform  // ErrorKind in public declarations
public import LanesWire

/// What happens while lanes run, as reporters see it. Text in events is already redacted.
public enum RunEvent: Sendable {
    case laneStarted(lane: String, at: Timestamp)
    case stepStarted(StepStart)
    case output(step: Int, line: String)
    case message(String)
    case stepFinished(StepRecord)
    /// The result of the step `lanes run` ran.
    case result(StepResultReport)
    case laneFinished(LaneSummary)
}

public struct StepStart: Sendable {
    public let index: Int
    public let id: String
    public let banner: String
    /// Where each option's value came from (secrets masked).
    public let options: [ResolvedOption]
    public let at: Timestamp
}

/// One step's outcome, for the summary table, JSON and JUnit.
public struct StepRecord: Sendable {
    public enum Outcome: Sendable {
        case succeeded
        case failed(message: String, outputTail: [String])
    }
    public let index: Int
    public let id: String
    public let banner: String
    public let duration: Duration
    public let outcome: Outcome
    /// What the step's result says about the run (version, build number, artifacts).
    public var facts = RunFacts()

    public var succeeded: Bool {
        if case .succeeded = outcome { true } else { false }
    }
}

/// How a lane ended.
public struct LaneSummary: Sendable {
    public let lane: String
    public let steps: [StepRecord]
    public let duration: Duration
    /// The redacted error when the lane failed, nil on success.
    public let failure: String?
    public let kind: ErrorKind?
}

/// Receives events as they happen.
public protocol Reporter: Sendable {
    func report(_ event: RunEvent)
    /// A batch of a step's output lines (`.output` events, many at once): a reporter that writes
    /// them with one write implements it; by default each line is reported as an `.output` event.
    func reportOutput(step: Int, lines: OutputLines)
}

extension Reporter {
    public func reportOutput(step: Int, lines: OutputLines) {
        for line in lines.lines { report(.output(step: step, line: line)) }
    }
}

/// Sends each event to several reporters (terminal and JUnit, say).
public struct ReporterGroup: Reporter {
    let reporters: [any Reporter]
    public init(_ reporters: [any Reporter]) { self.reporters = reporters }
    public func report(_ event: RunEvent) {
        for reporter in reporters { reporter.report(event) }
    }
    public func reportOutput(step: Int, lines: OutputLines) {
        for reporter in reporters { reporter.reportOutput(step: step, lines: lines) }
    }
}

extension Duration {
    /// Seconds with millisecond precision: `1.234 s`.
    var formattedSeconds: String {
        let milliseconds = components.seconds * 1000 + components.attoseconds / 1_000_000_000_000_000
        let whole = milliseconds / 1000
        let fraction = String(milliseconds % 1000)
        return "\(whole).\(String(repeating: "0", count: 3 - fraction.count))\(fraction) s"
    }

    var secondsValue: Double {
        Double(components.seconds) + Double(components.attoseconds) / 1e18
    }
}
