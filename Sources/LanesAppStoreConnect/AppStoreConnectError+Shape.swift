public import LanesPlatform

/// Apple's answer decides the kind, as for any upload: a refused request is configuration, the rest a failed transfer.
extension AppStoreConnectError: ClassifiedError {
    public var lanesKind: ErrorKind { uploadError.lanesKind }
}
