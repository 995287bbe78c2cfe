public import LanesPlatform

/// The address could not be bound or served: the machine's to fix (port taken, no permission).
extension HTTPServerError: ClassifiedError {
    public var lanesKind: ErrorKind { .environment }
}
