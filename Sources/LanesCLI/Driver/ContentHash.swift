internal import COpenSSL

/// SHA-256 through OpenSSL, for cache keys.
struct ContentHash {
    private var parts: [[UInt8]] = []

    mutating func add(_ text: String) { add(Array(text.utf8)) }

    /// Each part is length-prefixed, so that ("ab", "c") and ("a", "bc") hash differently.
    mutating func add(_ bytes: [UInt8]) {
        var length = UInt64(bytes.count).littleEndian
        parts.append(withUnsafeBytes(of: &length) { Array($0) })
        parts.append(bytes)
    }

    var hexDigest: String {
        let context = EVP_MD_CTX_new()
        defer { EVP_MD_CTX_free(context) }
        EVP_DigestInit_ex(context, EVP_sha256(), nil)
        for part in parts {
            part.withUnsafeBytes { _ = EVP_DigestUpdate(context, $0.baseAddress, $0.count) }
        }
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        EVP_DigestFinal_ex(context, &digest, &length)
        let hex = Array("0123456789abcdef".utf8)
        var result: [UInt8] = []
        for byte in digest.prefix(Int(length)) {
            result.append(hex[Int(byte >> 4)])
            result.append(hex[Int(byte & 0x0F)])
        }
        return String(decoding: result, as: UTF8.self)
    }
}
