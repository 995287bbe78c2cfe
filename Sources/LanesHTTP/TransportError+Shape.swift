public import LanesPlatform

/// A connection that failed or went quiet fails the transfer, and so the lane.
extension TransportError: ClassifiedError {
    public var lanesKind: ErrorKind { .laneFailure }
}
