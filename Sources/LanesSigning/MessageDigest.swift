internal import LanesPlatform
internal import COpenSSL

/// One-shot message digests through OpenSSL's EVP, as hex: the one digest API of the modules above
/// LanesSigning (certificate fingerprints, artifact checksums). The driver keeps its own pure-Swift
/// SHA-256 so that `lanes` never loads libcrypto.
public enum MessageDigest {
    public enum Algorithm: Sendable {
        case md5, sha1, sha256
    }

    public static func hex(_ bytes: [UInt8], _ algorithm: Algorithm, uppercase: Bool = false) -> String {
        OpenSSLRuntime.start()
        var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
        var length: UInt32 = 0
        let ok = bytes.withUnsafeBytes { EVP_Digest($0.baseAddress, $0.count, &output, &length, algorithm.evp, nil) }
        precondition(ok == 1, "EVP_Digest failed")
        return Hex.encode(output.prefix(Int(length)), uppercase: uppercase)
    }
}

extension MessageDigest.Algorithm {
    var evp: OpaquePointer? {
        switch self {
        case .md5: EVP_md5()
        case .sha1: EVP_sha1()
        case .sha256: EVP_sha256()
        }
    }
}
