public import LanesPlatform

/// A storage that failed (git, S3, the file system) is the machine's or service's fault; anything
/// else is a password, file or option to fix.
extension MatchError: ClassifiedError {
    public var lanesKind: ErrorKind { isEnvironmental ? .environment : .configuration }
}
