internal import LanesPlatform
internal import COpenSSL

extension MessageDigest {
    /// A digest fed in pieces, for files too large to read whole (a multi-gigabyte artifact).
    public final class Running {
        private let context: OpaquePointer

        public init(_ algorithm: Algorithm) {
            OpenSSLRuntime.start()
            context = EVP_MD_CTX_new()!
            precondition(EVP_DigestInit_ex(context, algorithm.evp, nil) == 1, "EVP_DigestInit_ex failed")
        }

        deinit { EVP_MD_CTX_free(context) }

        public func update(_ bytes: UnsafeRawBufferPointer) {
            guard bytes.count > 0 else { return }
            precondition(EVP_DigestUpdate(context, bytes.baseAddress, bytes.count) == 1, "EVP_DigestUpdate failed")
        }

        /// The digest as lowercase hex; the digest cannot be fed after this.
        public func finishHex() -> String {
            var output = [UInt8](repeating: 0, count: Int(EVP_MAX_MD_SIZE))
            var length: UInt32 = 0
            precondition(EVP_DigestFinal_ex(context, &output, &length) == 1, "EVP_DigestFinal_ex failed")
            return Hex.encode(output.prefix(Int(length)))
        }
    }
}
