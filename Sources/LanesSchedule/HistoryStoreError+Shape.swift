public import LanesPlatform

/// The history database could not be opened or written: the machine's state folder is at fault.
extension HistoryStoreError: ClassifiedError {
    public var lanesKind: ErrorKind { .environment }
}
