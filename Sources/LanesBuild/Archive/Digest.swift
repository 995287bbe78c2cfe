internal import LanesPlatform
internal import COpenSSL

/// SHA-256 of bytes, as lowercase hex (OpenSSL's EVP, like LanesSigning).
enum SHA256Digest {
    static func hex(_ bytes: [UInt8]) -> String {
        var digest = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { buffer in
            digest.withUnsafeMutableBufferPointer { EVP_Digest(buffer.baseAddress, buffer.count, $0.baseAddress, &length, EVP_sha256(), nil) }
        }
        precondition(ok == 1, "EVP_Digest(SHA-256) failed")
        return Hex.encode(digest.prefix(Int(length)))
    }
}
