import Synchronization
internal import LanesPlatform
internal import LanesWire

/// One running lane: its context and reporter. Steps called from a lane body find it through a
/// task-local value, the scoped way Swift offers to hand ambient context down an async call tree
/// (no global, and each concurrently running lane sees its own).
public final class LaneRun: Sendable {
    @TaskLocal static var current: LaneRun?
    /// The lanes being run, outermost first, as one lane calls another.
    @TaskLocal static var callChain: [String] = []
    /// Variables `withEnvironment` adds for the steps called inside it.
    @TaskLocal static var environmentOverlay: [String: String] = [:]
    /// The lane's `Configuration` (`Lane(configuration:)`, `withConfiguration`).
    @TaskLocal static var configuration: (any Configuration)?

    public let context: StepContext
    let lanefile: Lanefile
    let reporter: any Reporter
    private let state = Mutex<State>(State())

    private struct State {
        var records: [StepRecord] = []
        var stepCount = 0
    }

    public init(lanefile: Lanefile, context: StepContext, reporter: any Reporter) {
        self.lanefile = lanefile
        self.context = context
        self.reporter = reporter
    }

    /// Steps run so far, in order.
    public var records: [StepRecord] { state.withLock { $0.records } }

    /// Builds one step from its arguments and runs it in this lane: banner, redacted output,
    /// duration, outcome. Options resolve before the banner, so a bad one fails with no side effect.
    public func run<S: Step>(_ type: S.Type, _ arguments: StepArguments, as alias: String? = nil) async throws -> S.Output {
        var arguments = arguments
        if let alias { arguments.imply(S.definition.aliasArguments[alias] ?? [:], options: S.info.options) }
        // What earlier steps set for the lane (xcodes' DEVELOPER_DIR), then withEnvironment's variables.
        let additions = (self.context.values[LaneEnvironmentAdditions.self] ?? [:]).merging(Self.environmentOverlay) { $1 }
        let context = self.context.overlaying(additions)
        let configuration = Self.configuration
        let (step, options, timeout, notes) = try StepResolution.build(S.self, arguments: arguments, environment: context.environment,
                                                                       configuration: configuration)
        let redactor = context.environment.redactor
        let id = S.definition.id
        let index = state.withLock { state in
            state.stepCount += 1
            return state.stepCount
        }
        let banner = redactor.redact(step.banner)
        reporter.report(.stepStarted(StepStart(index: index, id: id, banner: banner, options: options, at: .now())))
        let log = StepLog.batching(redactor: redactor, to: { [reporter] lines in reporter.reportOutput(step: index, lines: lines) })
        for note in notes { log.line(note) }
        let clock = ContinuousClock()
        let start = clock.now
        do {
            let stepContext = context.forStep(id, options: options, log: log, configuration: configuration,
                                              secretOptions: { Set(S.info.options.filter(\.isSecret).map(\.name)) })
            let output = try await StepDeadline(seconds: timeout, stepID: id, host: context.host).run { try await step.run(in: stepContext) }
            let facts = (output as? any RunFactsReporting)?.runFacts ?? RunFacts()
            finish(StepRecord(index: index, id: id, banner: banner, duration: clock.now - start, outcome: .succeeded,
                              facts: RunFacts(version: facts.version.map(redactor.redact), buildNumber: facts.buildNumber.map(redactor.redact),
                                              artifacts: facts.artifacts.map(redactor.redact))))
            return output
        } catch {
            // Ctrl-C or SIGTERM cancels the lane's task: the step says it was cancelled, not what
            // its half-stopped tool printed last.
            let message = Task.isCancelled && !(error is StepTimedOut)
                ? "cancelled (interrupted by a signal); its processes were ended"
                : TerminalText.visible(redactor.redact(String(describing: error)))
            let tail = log.lastLines  // JSON's output_tail and JUnit's failure body, for every kind of failure
            finish(StepRecord(index: index, id: id, banner: banner, duration: clock.now - start,
                              outcome: .failed(message: message, outputTail: tail)))
            throw StepFailure(stepID: id, index: index, underlying: error)
        }
    }

    /// Runs another lane of the same Lanefile from a lane body. Hooks do not run again.
    func call(_ lane: Lane, options: [String: String]) async throws {
        let chain = Self.callChain
        if chain.contains(lane.name) {
            // A lane that calls itself, directly or through others, would recurse until the stack
            // overflows: fail with the chain instead.
            throw LanesError(.configuration, "lane \(lane.name) calls itself: \((chain + [lane.name]).joined(separator: " -> "))",
                             hint: "a lane may call other lanes, but not one that is already running")
        }
        let requirements = LaneRequirements(lane: lane)
        requirements.registerSecrets(in: context.environment)
        let values = OptionValues(given: options, environment: context.environment)
        try values.validate(against: lane.options, for: "lane \(lane.name)")
        try requirements.check(in: context.environment)
        reporter.report(.message("--- lane \(lane.name)"))
        try await Self.$callChain.withValue(chain + [lane.name]) {
            try await Self.$configuration.withValue(lane.configuration ?? Self.configuration) {
                try await lane.body(LaneInvocation(laneName: lane.name, values: values))
            }
        }
    }

    /// The result of the step `lanes run` ran, for a person or as JSON.
    func reportResult(_ result: StepResultReport) {
        let redactor = context.environment.redactor
        reporter.report(.result(StepResultReport(lines: result.lines.map { TerminalText.visible(redactor.redact($0)) },
                                                 json: result.json.mappingStrings(redactor.redact))))
    }

    func message(_ text: String) {
        reporter.report(.message(TerminalText.visible(context.environment.redactor.redact(text))))
    }

    private func finish(_ record: StepRecord) {
        state.withLock { $0.records.append(record) }
        reporter.report(.stepFinished(record))
    }

    /// Runs `body` with this lane as the current one.
    func perform<T: Sendable>(lane: String, _ body: () async throws -> T) async rethrows -> T {
        try await LaneRun.$current.withValue(self) {
            try await LaneRun.$callChain.withValue([lane]) { try await body() }
        }
    }
}

/// A step failed; carries the step so the summary can name it, and the error the step threw.
public struct StepFailure: Error, Sendable, CustomStringConvertible {
    public let stepID: String
    public let index: Int
    public let underlying: any Error

    public var description: String { String(describing: underlying) }
}

extension StepContext {
    /// The context one step runs in: its log, the lane's Configuration, and its processes behind
    /// the one check that no secret reaches a child's arguments (`SecretFreeArguments`).
    func forStep(_ id: String, options: [ResolvedOption], log: StepLog, configuration: (any Configuration)? = nil,
                 secretOptions: @escaping @Sendable () -> Set<String>) -> StepContext {
        let guarded = SecretFreeArguments(base: processes, step: id, options: options, secretOptions: secretOptions,
                                          redactor: environment.redactor)
        return StepContext(environment: environment, projectDirectory: projectDirectory, stateDirectory: stateDirectory,
                           log: log, cleanups: cleanups, processes: guarded, values: values,
                           configuration: configuration ?? self.configuration, host: host)
    }
}

/// Runs a built-in step in the current lane. The generated Lanefile functions (`sh`,
/// `importCertificate`, ...) are thin wrappers over this.
@discardableResult
public func runStep<S: Step>(_ type: S.Type, _ arguments: StepArguments, as alias: String? = nil) async throws -> S.Output {
    guard let run = LaneRun.current else {
        throw LanesError(.configuration, "step \(S.definition.id) was called outside a running lane",
                         hint: "call steps from a lane body, or use `lanes run \(S.definition.id)`")
    }
    return try await run.run(type, arguments, as: alias)
}
