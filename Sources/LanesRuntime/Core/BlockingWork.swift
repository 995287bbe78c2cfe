internal import Foundation
import Synchronization
internal import LanesPlatform

/// Work that blocks a thread (a socket transfer, a libgit2 network call) run from a step: on a
/// thread of its own, never on the cooperative pool (two cores give it two threads), with the
/// step's cancellation passed on through `onCancel` so the work can end itself. The step's
/// deadline (`StepDeadline`) stops waiting after its grace period even if the work never does.
enum BlockingWork {
    static func run<T: Sendable>(onCancel: @escaping @Sendable () -> Void,
                                 _ work: @escaping @Sendable () throws -> T) async throws -> T {
        try await BlockingThread.run(onCancel: onCancel, work)
    }
}

/// Set once when a step is asked to stop; read by work that polls for it (libgit2's callbacks).
final class StopFlag: Sendable {
    private let stopped = Atomic(false)

    func stop() { stopped.store(true, ordering: .relaxed) }
    var isStopped: Bool { stopped.load(ordering: .relaxed) }
}
