internal import COpenSSL

/// OpenSSL's process-wide start: the one in COpenSSL's shim, shared with LanesSigning. Every entry
/// into OpenSSL from this module and from LanesUpload calls `ensure()` first.
package enum OpenSSLStart {
    private static let started: Bool = lanes_openssl_start() == 1

    package static func ensure() { _ = started }
}
