/// A state folder or file that is not private (or cannot be made so) is the machine's to fix.
extension PrivateFolder.Refusal: ClassifiedError {
    public var lanesKind: ErrorKind { .environment }
}

/// A child that could not be started fails what wanted it, as a child that failed would.
extension SpawnFailure: ClassifiedError {
    public var lanesKind: ErrorKind { .laneFailure }
}
