internal import COpenSSL

/// The OpenSSL lanes runs with, for bug reports (`lanes env`).
public enum OpenSSLVersion {
    /// `OpenSSL 3.0.17 1 Jul 2025`: the library loaded at run time, not the headers built against.
    public static var runtime: String {
        OpenSSLRuntime.start()
        return String(cString: OpenSSL_version(Int32(OPENSSL_VERSION)))
    }
}
