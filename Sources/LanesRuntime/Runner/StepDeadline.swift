public import LanesPlatform  // ErrorKind in public declarations

import Synchronization

/// A step's `timeout` and the lane's cancellation (Ctrl-C, SIGTERM). The step runs in a task of its
/// own, raced against its deadline and against cancellation of the lane. Whichever comes first
/// decides: a step that returned before its deadline is never reported as timed out, and a step that
/// ignores cancellation (blocked in a call nothing can interrupt) cannot hold the lane longer than
/// `grace` after it was asked to stop. Cancellation ends the step's processes, whole process groups
/// included (see `SubprocessRunner`), and interrupts its transfers (see `StepContext.uploads`).
struct StepDeadline {
    let seconds: Double?
    let stepID: String
    /// Whose clock the deadline and the grace period run on.
    let host: any Host
    /// How long a stopped step gets to unwind (end its processes, abort an S3 upload) before the
    /// lane goes on without it.
    var grace: Duration = .milliseconds(900)

    func run<T: Sendable>(_ body: @escaping @Sendable () async throws -> T) async throws -> T {
        let race = Race<T>()
        let work = Task {
            let result: Result<T, any Error>
            do { result = .success(try await body()) } catch { result = .failure(error) }
            race.finish(.body(result))
            return try result.get()
        }
        let timer = seconds.map { seconds in
            Task {
                try await host.sleep(for: .seconds(seconds))
                race.finish(.deadline)
            }
        }
        let first = await withTaskCancellationHandler {
            await race.wait()
        } onCancel: {
            race.finish(.cancelled)
        }
        timer?.cancel()
        switch first {
        case .body(let result):
            return try result.get()
        case .deadline, .cancelled:
            work.cancel()
            // Give the step its grace period to unwind, then stop waiting for it.
            let unwound = Race<T>()
            let watch = Task {
                let result = await work.result
                unwound.finish(.body(result))
            }
            let graceTimer = Task { [grace, host] in
                try await host.sleep(for: grace)
                unwound.finish(.deadline)
            }
            let ended = await unwound.wait()
            graceTimer.cancel()
            watch.cancel()
            if case .deadline = first, let seconds { throw StepTimedOut(stepID: stepID, seconds: seconds) }
            if case .body(.failure(let error)) = ended { throw error }
            throw CancellationError()
        }
    }

    /// The first of several outcomes; later ones are ignored.
    private final class Race<T: Sendable>: Sendable {
        enum Outcome: Sendable {
            case body(Result<T, any Error>)
            case deadline
            case cancelled
        }

        private let state = Mutex<(outcome: Outcome?, waiter: CheckedContinuation<Outcome, Never>?)>((nil, nil))

        func finish(_ outcome: Outcome) {
            let waiter: CheckedContinuation<Outcome, Never>? = state.withLock { state in
                guard state.outcome == nil else { return nil }
                state.outcome = outcome
                defer { state.waiter = nil }
                return state.waiter
            }
            waiter?.resume(returning: outcome)
        }

        func wait() async -> Outcome {
            await withCheckedContinuation { continuation in
                let ready: Outcome? = state.withLock { state in
                    if let outcome = state.outcome { return outcome }
                    state.waiter = continuation
                    return nil
                }
                if let ready { continuation.resume(returning: ready) }
            }
        }
    }
}

/// A step ran past its `timeout`; its processes were ended.
public struct StepTimedOut: Error, ClassifiedError, CustomStringConvertible {
    public let stepID: String
    public let seconds: Double

    public var lanesKind: ErrorKind { .laneFailure }
    public var description: String {
        "\(stepID) timed out after \(seconds.formatted()) s; its processes were ended"
    }
}
