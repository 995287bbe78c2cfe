public import LanesPlatform

extension UploadError: ClassifiedError {
    public var lanesKind: ErrorKind {
        switch kind {
        case .usage: .usage
        case .configuration: .configuration
        case .environment: .environment
        case .transfer: .laneFailure
        case .internal: .internal
        }
    }
}

