public import LanesPlatform

/// A schedule that does not parse is the Lanefile's to fix.
extension CronSyntaxError: ClassifiedError {
    public var lanesKind: ErrorKind { .configuration }
}
