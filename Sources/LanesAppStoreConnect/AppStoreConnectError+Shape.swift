public import LanesPlatform
import LanesHTTP

/// Apple's answer decides the kind, as for any upload: a refused request is configuration, the rest a failed transfer.
extension AppStoreConnectError: ClassifiedError {
    public var lanesKind: ErrorKind { uploadError.lanesKind }
    /// Printed as every shaped error is: the message, then the hint on its own line.
    public var description: String { shapedDescription }
}
