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
    /// Deflate never expands data by more than this factor (RFC 1951's longest match, 258 bytes
    /// from a 1 or 2 bit code): a size claiming more is a lie, refused before anything is allocated.
    static let largestRatio = 1032

    /// Inflates `input`, which must give exactly `expectedSize` bytes. The output grows as bytes
    /// come, so memory follows what the data holds, never what a header claims.
    static func inflate(_ input: ArraySlice<UInt8>, format: Format, expectedSize: Int) throws(Failure) -> [UInt8] {
        guard expectedSize >= 0, expectedSize <= input.count * largestRatio + 1024 else {
            throw Failure(message: "claims \(expectedSize) bytes from \(input.count) compressed, more than deflate can give")
        }
        var stream = z_stream()
        guard lanes_inflateInit2(&stream, format.windowBits) == Z_OK else { throw Failure(message: "inflateInit2 failed") }
        defer { inflateEnd(&stream) }
        // One byte beyond the expected size shows data that is longer than claimed.
        let limit = expectedSize + 1
        var output = [UInt8](repeating: 0, count: min(limit, max(64 << 10, input.count * 4)))
        var input = Array(input)
        var produced = 0
        var status: Int32 = Z_OK
        input.withUnsafeMutableBufferPointer { source in
            stream.next_in = source.baseAddress
            stream.avail_in = uInt(source.count)
            while true {
                if produced == output.count {
                    guard output.count < limit else { break }
                    output += [UInt8](repeating: 0, count: min(output.count, limit - output.count))
                }
                status = output.withUnsafeMutableBufferPointer { target in
                    stream.next_out = target.baseAddress! + produced
                    stream.avail_out = uInt(target.count - produced)
                    let code = CZlib.inflate(&stream, Z_NO_FLUSH)
                    produced = target.count - Int(stream.avail_out)
                    return code
                }
                if status != Z_OK { break }
                if stream.avail_in == 0 && produced < output.count { break }
            }
        }
        guard status == Z_STREAM_END, produced == expectedSize else {
            throw Failure(message: "inflate failed (status \(status), \(produced) of \(expectedSize) bytes)")
        }
        output.removeSubrange(produced...)
        return output
    }

    static func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { UInt32(CZlib.crc32(0, $0.baseAddress, uInt($0.count))) }
    }
}
