public import LanesPlatform

/// A file, password, keychain name or identity the Lanefile chose is wrong (78), or the machine
/// lacks something (78); only a failing OpenSSL operation fails the lane.
extension SigningError: ClassifiedError {
    public var lanesKind: ErrorKind {
        switch self {
        case .fileUnwritable, .openSSLProviderMissing, .identityNotTrusted: .environment
        case .openSSL: .laneFailure
        default: .configuration
        }
    }
}

/// A certificate and profile that do not belong together are a configuration to fix.
extension SigningCheckFailure: ClassifiedError {
    public var lanesKind: ErrorKind { .configuration }
}
