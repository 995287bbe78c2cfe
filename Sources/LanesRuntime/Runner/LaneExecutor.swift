public import LanesPlatform  // ErrorKind in public declarations
internal import LanesWire

/// Runs one lane from the command line: requirements first, then hooks and body, then cleanups,
/// and reports the summary. Returns the exit status.
public struct LaneExecutor: Sendable {
    let lanefile: Lanefile
    let context: StepContext
    let reporter: any Reporter
    let diagnostics: Diagnostics

    public init(lanefile: Lanefile, context: StepContext, reporter: any Reporter) {
        self.init(lanefile: lanefile, context: context, reporter: reporter, diagnostics: .silent)
    }

    init(lanefile: Lanefile, context: StepContext, reporter: any Reporter, diagnostics: Diagnostics) {
        self.lanefile = lanefile
        self.context = context
        self.reporter = reporter
        self.diagnostics = diagnostics
    }

    /// Checks everything that can be checked before a side effect: the lane exists, its options
    /// parse, its variables and secrets are all present.
    public func prepare(lane name: String, options: [String: String]) throws -> (Lane, OptionValues) {
        guard let lane = lanefile.lane(named: name) else {
            throw LanesError(.usage, "no lane named '\(name)' in the Lanefile",
                             hint: NameSuggestions(known: lanefile.lanes.map(\.name)).hint(for: name, noun: "lane", listCommand: "lanes list"))
        }
        let requirements = LaneRequirements(lane: lane)
        requirements.registerSecrets(in: context.environment)
        let values = OptionValues(given: options, environment: context.environment)
        try values.validate(against: lane.options, for: "lane \(lane.name)")
        try requirements.check(in: context.environment)
        return (lane, values)
    }

    /// Runs a prepared lane and its hooks; the error, if any, has been reported when this returns.
    public func execute(_ lane: Lane, values: OptionValues) async -> ErrorKind? {
        let run = LaneRun(lanefile: lanefile, context: context, reporter: reporter)
        context.values[RunningLaneName.self] = lane.name
        let clock = ContinuousClock()
        let start = clock.now
        context.values[LaneStartTime.self] = start
        reporter.report(.laneStarted(lane: lane.name, at: .now()))
        var failure: (any Error)?
        await run.perform(lane: lane.name) {
            do {
                for hook in lanefile.beforeEach { try await hook(lane) }
                try await LaneRun.$configuration.withValue(lane.configuration) {
                    try await lane.body(LaneInvocation(laneName: lane.name, values: values))
                }
                for hook in lanefile.afterSuccess { try await hook(lane) }
            } catch {
                failure = error
                // Hooks see the error the step threw (a `GitError`, a `SigningError`), not the wrapper.
                let thrown = (error as? StepFailure)?.underlying ?? error
                context.values[LaneFailureText.self] = context.environment.redactor.redact(String(describing: thrown))
                for hook in lanefile.onError {
                    do { try await hook(lane, thrown) } catch { run.message("error hook failed: \(error)") }
                }
            }
            for hook in lanefile.finally {
                do { try await hook(lane) } catch {
                    failure = failure ?? error
                    run.message("finally hook failed: \(error)")
                }
            }
        }
        // Cleanups run in a task of their own: after Ctrl-C the lane's task is cancelled, and a
        // cleanup that starts a process (`security delete-keychain`) must not be cancelled with it.
        let cleanups = context.cleanups
        diagnostics.debug("lane \(lane.name) ended\(Task.isCancelled ? " by a signal" : ""); running cleanups")
        for problem in await Task(operation: { await cleanups.runAll() }).value {
            run.message("cleanup failed: \(problem)")
        }
        if Task.isCancelled {
            failure = LanesError(.interrupted, "interrupted by a signal; cleanups ran")
        }
        // An error may quote a server, a file or a tool: redacted, then its control characters shown.
        let message = failure.map { TerminalText.visible(context.environment.redactor.redact(String(describing: $0)), keepingLineBreaks: true) }
        let kind = failure?.lanesKind
        reporter.report(.laneFinished(LaneSummary(lane: lane.name, steps: run.records, duration: clock.now - start,
                                                  failure: message, kind: kind)))
        return kind
    }
}
