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
        let digits = Array("0123456789abcdef".utf8)
        var text: [UInt8] = []
        for byte in digest.prefix(Int(length)) {
            text.append(digits[Int(byte >> 4)])
            text.append(digits[Int(byte & 0x0F)])
        }
        return String(decoding: text, as: UTF8.self)
    }
}
