public import LanesPlatform

/// A refused request is a configuration problem (the key, the app, an option); a server error fails the lane.
extension GooglePlayError: ClassifiedError {
    public var lanesKind: ErrorKind {
        [400, 401, 403, 404, 409, 422].contains(status) ? .configuration : .laneFailure
    }

    /// Printed as every shaped error is: the message, then the hint on its own line.
    public var description: String { shapedDescription }
}
