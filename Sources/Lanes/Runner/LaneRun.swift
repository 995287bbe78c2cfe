/// One running lane: its context and reporter. Steps called from a lane body find it through a
/// task-local value, the scoped way Swift offers to hand ambient context down an async call tree
/// (no global, and each concurrently running lane sees its own).
public final class LaneRun: Sendable {
    @TaskLocal static var current: LaneRun?

    public let context: StepContext

    public init(context: StepContext) {
        self.context = context
    }

    /// Runs one step in this lane.
    public func run<S: Step>(_ step: S) async throws -> S.Output {
        try await step.run(in: context)
    }

    /// Runs `body` with this lane as the current one.
    public func perform<T: Sendable>(_ body: () async throws -> T) async rethrows -> T {
        try await LaneRun.$current.withValue(self) { try await body() }
    }
}

/// Runs a built-in step in the current lane. The DSL's step functions (`sh`, `importCertificate`)
/// are thin wrappers over this.
@discardableResult
public func runStep<S: Step>(_ step: S) async throws -> S.Output {
    guard let run = LaneRun.current else {
        throw LanesError(.internal, "step \(S.info.id) was called outside a running lane",
                         hint: "call steps from a lane body, or use `lanes run \(S.info.id)`")
    }
    return try await run.run(step)
}
