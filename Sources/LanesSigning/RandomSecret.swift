internal import LanesPlatform
internal import COpenSSL

/// Random passwords from OpenSSL's CSPRNG, as hex so they need no quoting anywhere.
public enum RandomSecret {
    public static func hex(bytes count: Int) throws(SigningError) -> String {
        OpenSSLRuntime.start()
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else {
            throw .openSSL(operation: "generate a random password", detail: OpenSSLErrors.drain().summary)
        }
        return Hex.encode(bytes)
    }
}
