internal import CZlib

/// zlib's deflate and inflate on whole buffers: gzip for tar.gz artifacts, raw deflate for zip entries.
enum Zlib {
    enum Format {
        case gzip
        /// Deflate without a header, as zip entries store it.
        case raw

        var windowBits: Int32 { self == .gzip ? 15 + 16 : -15 }
    }

    struct Failure: Error { let message: String }

    static func deflate(_ input: [UInt8], format: Format, level: Int32 = 9) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard lanes_deflateInit2(&stream, level, format.windowBits) == Z_OK else { throw Failure(message: "deflateInit2 failed") }
        defer { deflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: Int(deflateBound(&stream, uLong(input.count))) + 64)
        var input = input
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.deflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END else { throw Failure(message: "deflate failed (\(status))") }
        output.removeSubrange(Int(stream.total_out)...)
        return output
    }

    /// Inflates to exactly `expectedSize` bytes (the size the zip directory records); anything else fails.
    static func inflate(_ input: ArraySlice<UInt8>, format: Format, expectedSize: Int) throws(Failure) -> [UInt8] {
        var stream = z_stream()
        guard lanes_inflateInit2(&stream, format.windowBits) == Z_OK else { throw Failure(message: "inflateInit2 failed") }
        defer { inflateEnd(&stream) }
        var output = [UInt8](repeating: 0, count: expectedSize + 1)
        var input = Array(input)
        let status: Int32 = input.withUnsafeMutableBufferPointer { source in
            output.withUnsafeMutableBufferPointer { target in
                stream.next_in = source.baseAddress
                stream.avail_in = uInt(source.count)
                stream.next_out = target.baseAddress
                stream.avail_out = uInt(target.count)
                return CZlib.inflate(&stream, Z_FINISH)
            }
        }
        guard status == Z_STREAM_END, Int(stream.total_out) == expectedSize else {
            throw Failure(message: "inflate failed (status \(status), \(stream.total_out) of \(expectedSize) bytes)")
        }
        output.removeLast()
        return output
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
