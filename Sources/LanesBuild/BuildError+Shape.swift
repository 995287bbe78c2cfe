public import LanesPlatform

/// A refused artifact fails the lane; anything else is a wrong file, option or setting.
extension BuildError: ClassifiedError {
    public var lanesKind: ErrorKind {
        switch self {
        case .artifactRefused: .laneFailure
        default: .configuration
        }
    }
}
