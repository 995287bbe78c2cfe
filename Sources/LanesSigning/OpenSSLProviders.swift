/// Whether OpenSSL's "default" and "legacy" providers load (old PKCS#12 files need the legacy one),
/// for `lanes doctor`.
public enum OpenSSLProviders {
    public static func verify() throws(SigningError) {
        _ = try OpenSSLContext.forProcess()
    }
}
