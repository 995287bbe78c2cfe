public import LanesPlatform

/// A failed step has the shape of what the step threw.
extension StepFailure: ClassifiedError {
    public var lanesKind: ErrorKind { underlying.lanesKind }
    public var message: String { (underlying as? any ClassifiedError)?.message ?? String(describing: underlying) }
    public var hint: String? { (underlying as? any ClassifiedError)?.hint }
}

/// A command that exited non-zero or was killed fails the lane.
extension ShellFailure: ClassifiedError {
    public var lanesKind: ErrorKind { .laneFailure }
}
