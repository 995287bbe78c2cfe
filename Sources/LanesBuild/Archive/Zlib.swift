internal import CZlib

/// zlib's deflate and inflate, fed in pieces so an archive of any size streams through a fixed
/// buffer: gzip for tar.gz artifacts, raw deflate for zip entries.
enum Zlib {
    enum Format {
        case gzip
        /// Deflate without a header, as zip entries store it.
        case raw

        var windowBits: Int32 { self == .gzip ? 15 + 16 : -15 }
    }

    struct Failure: Error { let message: String }

    /// The output buffer of one deflate or inflate call.
    static let chunkSize = 256 << 10

    /// Compresses what `add` is given, handing each compressed piece to `output` as it is made.
    final class Deflater {
        private var stream = z_stream()
        private var buffer = [UInt8](repeating: 0, count: Zlib.chunkSize)
        private let output: (UnsafeRawBufferPointer) throws -> Void
        /// Compressed bytes handed out so far.
        private(set) var producedCount = 0

        init(format: Format, level: Int32, output: @escaping (UnsafeRawBufferPointer) throws -> Void) throws(Failure) {
            self.output = output
            guard lanes_deflateInit2(&stream, level, format.windowBits) == Z_OK else { throw Failure(message: "deflateInit2 failed") }
        }

        deinit { deflateEnd(&stream) }

        func add(_ bytes: UnsafeRawBufferPointer) throws {
            guard bytes.count > 0 else { return }
            try run(bytes, flush: Z_NO_FLUSH)
        }

        /// Ends the stream: the last compressed bytes (and gzip's trailer) go out.
        func finish() throws { try run(UnsafeRawBufferPointer(start: nil, count: 0), flush: Z_FINISH) }

        private func run(_ bytes: UnsafeRawBufferPointer, flush: Int32) throws {
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress?.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = uInt(bytes.count)
            while true {
                let (status, made) = buffer.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    let status = CZlib.deflate(&stream, flush)
                    return (status, target.count - Int(stream.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || status == Z_BUF_ERROR else {
                    throw Failure(message: "deflate failed (\(status))")
                }
                if made > 0 {
                    producedCount += made
                    try buffer.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0[..<made])) }
                }
                if flush == Z_FINISH ? status == Z_STREAM_END : (stream.avail_in == 0 && made < buffer.count) { return }
            }
        }
    }

    /// Decompresses what `add` is given, handing each decompressed piece to `output`. It refuses
    /// more than `limit` bytes of output, so a small entry claiming to be small cannot grow large.
    final class Inflater {
        private var stream = z_stream()
        private var buffer = [UInt8](repeating: 0, count: Zlib.chunkSize)
        private let limit: Int
        private let output: (UnsafeRawBufferPointer) throws -> Void
        private(set) var producedCount = 0
        private(set) var ended = false

        init(format: Format, limit: Int, output: @escaping (UnsafeRawBufferPointer) throws -> Void) throws(Failure) {
            self.limit = limit
            self.output = output
            guard lanes_inflateInit2(&stream, format.windowBits) == Z_OK else { throw Failure(message: "inflateInit2 failed") }
        }

        deinit { inflateEnd(&stream) }

        func add(_ bytes: UnsafeRawBufferPointer) throws {
            guard bytes.count > 0 else { return }
            guard !ended else { throw Failure(message: "data continues after the end of the deflate stream") }
            stream.next_in = UnsafeMutablePointer(mutating: bytes.baseAddress!.assumingMemoryBound(to: UInt8.self))
            stream.avail_in = uInt(bytes.count)
            while true {
                let (status, made) = buffer.withUnsafeMutableBufferPointer { target -> (Int32, Int) in
                    stream.next_out = target.baseAddress
                    stream.avail_out = uInt(target.count)
                    let status = CZlib.inflate(&stream, Z_NO_FLUSH)
                    return (status, target.count - Int(stream.avail_out))
                }
                guard status == Z_OK || status == Z_STREAM_END || (status == Z_BUF_ERROR && made == 0) else {
                    throw Failure(message: "inflate failed (status \(status))")
                }
                if status == Z_BUF_ERROR { return }
                producedCount += made
                guard producedCount <= limit else { throw Failure(message: "gives more than the \(limit) bytes claimed") }
                if made > 0 { try buffer.withUnsafeBytes { try output(UnsafeRawBufferPointer(rebasing: $0[..<made])) } }
                if status == Z_STREAM_END {
                    ended = true
                    guard stream.avail_in == 0 else { throw Failure(message: "data continues after the end of the deflate stream") }
                    return
                }
                if stream.avail_in == 0 && made < buffer.count { return }
            }
        }
    }

    /// Deflate never expands data by more than this factor (RFC 1951's longest match, 258 bytes
    /// from a 1 or 2 bit code): a size claiming more is a lie, refused before anything is allocated.
    static let largestRatio = 1032

    /// Compresses a whole buffer (small data: tests, headers).
    static func deflate(_ input: [UInt8], format: Format, level: Int32 = 9) throws -> [UInt8] {
        var result: [UInt8] = []
        let deflater = try Deflater(format: format, level: level) { result.append(contentsOf: $0) }
        try input.withUnsafeBytes { try deflater.add($0) }
        try deflater.finish()
        return result
    }

    /// Inflates `input`, which must give exactly `expectedSize` bytes. The output grows as bytes
    /// come, so memory follows what the data holds, never what a header claims.
    static func inflate(_ input: ArraySlice<UInt8>, format: Format, expectedSize: Int) throws(Failure) -> [UInt8] {
        guard expectedSize >= 0, expectedSize <= input.count * largestRatio + 1024 else {
            throw Failure(message: "claims \(expectedSize) bytes from \(input.count) compressed, more than deflate can give")
        }
        var result: [UInt8] = []
        do {
            let inflater = try Inflater(format: format, limit: expectedSize) { result.append(contentsOf: $0) }
            try input.withUnsafeBytes { try inflater.add($0) }
            guard inflater.ended, result.count == expectedSize else {
                throw Failure(message: "inflate gave \(result.count) of \(expectedSize) bytes")
            }
        } catch let failure as Failure {
            throw failure
        } catch {
            throw Failure(message: "\(error)")
        }
        return result
    }

    /// CRC-32 continued over `bytes` from `crc` (0 to start).
    static func crc32(_ bytes: UnsafeRawBufferPointer, continuing crc: UInt32 = 0) -> UInt32 {
        guard let base = bytes.baseAddress else { return crc }
        var crc = uLong(crc)
        var offset = 0
        // zlib takes a 32-bit length: feed a larger buffer in pieces.
        while offset < bytes.count {
            let count = min(bytes.count - offset, 1 << 30)
            crc = CZlib.crc32(crc, base.assumingMemoryBound(to: UInt8.self) + offset, uInt(count))
            offset += count
        }
        return UInt32(crc)
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { crc32($0) } }
}
