internal import COpenSSL

/// Random passwords from OpenSSL's CSPRNG, as hex so they need no quoting anywhere.
public enum RandomSecret {
    public static func hex(bytes count: Int) throws(SigningError) -> String {
        var bytes = [UInt8](repeating: 0, count: count)
        guard RAND_bytes(&bytes, Int32(count)) == 1 else {
            throw .openSSL(operation: "generate a random password", detail: OpenSSLErrors.drain().summary)
        }
        return bytes.map { String($0, radix: 16).leftPadded(to: 2) }.joined()
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
