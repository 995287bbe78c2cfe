internal import COpenSSL

/// Byte plumbing between Swift arrays and OpenSSL memory BIOs.
enum MemoryBIO {
    /// Runs `body` with a read-only BIO over `bytes`; the BIO lives only during the call.
    static func reading<T>(_ bytes: [UInt8], _ body: (OpaquePointer) throws -> T) throws -> T {
        try bytes.withUnsafeBytes { raw in
            guard let bio = BIO_new_mem_buf(raw.baseAddress, Int32(raw.count)) else {
                throw SigningError.openSSL(operation: "allocate a memory buffer", detail: OpenSSLErrors.drain().summary)
            }
            defer { BIO_free(bio) }
            return try body(bio)
        }
    }

    /// Runs `body` with an empty writable BIO and returns what it wrote.
    static func writing(_ body: (OpaquePointer) throws -> Void) throws -> [UInt8] {
        guard let bio = BIO_new(BIO_s_mem()) else {
            throw SigningError.openSSL(operation: "allocate a memory buffer", detail: OpenSSLErrors.drain().summary)
        }
        defer { BIO_free(bio) }
        try body(bio)
        return contents(of: bio)
    }

    static func contents(of bio: OpaquePointer) -> [UInt8] {
        var pointer: UnsafeMutablePointer<CChar>?
        let count = lanes_BIO_get_mem_data(bio, &pointer)
        guard let pointer, count > 0 else { return [] }
        return pointer.withMemoryRebound(to: UInt8.self, capacity: count) { Array(UnsafeBufferPointer(start: $0, count: count)) }
    }
}
