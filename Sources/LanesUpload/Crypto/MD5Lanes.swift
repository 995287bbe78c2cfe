internal import CMD5Lanes
import LanesHTTP

/// The MD5s of up to eight byte ranges of one file, computed together: the C kernel advances one
/// message per vector lane, about 3 to 5 times as fast as OpenSSL's MD5 of one message, which is
/// bound by each step waiting on the one before. This makes Content-MD5, the checksum that S3 and
/// RGW verify at almost no cost of their own, the cheapest one to send with every part.
enum MD5Lanes {
    static let width = Int(LANES_MD5_WIDTH)
    /// Bytes read from each range per round: a multiple of the 64-byte block.
    static let roundSize = 256 << 10

    /// A build of the C kernel that this CPU runs.
    struct Kernel: Sendable, Hashable {
        let index: Int
        var name: String { String(cString: lanes_md5_kernel_name(index)) }

        /// The fastest on this CPU.
        static let fastest = Kernel(index: 0)
        /// Every build this CPU runs, fastest first.
        static var available: [Kernel] { (0..<lanes_md5_kernel_count()).map { Kernel(index: $0) } }
    }

    /// One MD5 per range, in order. At most `width` ranges. A cancelled `cancellation` ends the work
    /// within a round (2 MiB), however large the ranges.
    static func digests(path: String, ranges: [(offset: Int64, length: Int64)], kernel: Kernel = .fastest,
                        cancellation: TransferCancellation? = nil) throws(UploadError) -> [[UInt8]] {
        precondition(ranges.count <= width, "MD5Lanes hashes at most \(width) ranges at once")
        let file = try ArtifactFile.artifact(path)
        defer { file.close() }
        var state = LaneState(kernel: kernel)
        var buffers = [[UInt8]](repeating: [UInt8](repeating: 0, count: roundSize), count: width)
        var done = [Int64](repeating: 0, count: width)
        // Whole blocks first, a round at a time; lanes past their range are held still.
        while true {
            if let cancellation, cancellation.isCancelled { throw .transfer(path, "hashing was cancelled") }
            var blocks = [Int](repeating: 0, count: width)
            for (lane, range) in ranges.enumerated() {
                let wanted = Int(min(Int64(roundSize), (range.length - done[lane]) / 64 * 64))
                guard wanted > 0 else { continue }
                try file.readArtifactExactly(into: &buffers[lane], count: wanted, at: range.offset + done[lane])
                blocks[lane] = wanted / 64
                done[lane] += Int64(wanted)
            }
            guard blocks.contains(where: { $0 > 0 }) else { break }
            state.compress(buffers, blocks: blocks)
        }
        // Then each range's last partial block with MD5's padding: 0x80, zeros, the length in bits.
        var finals = [[UInt8]](repeating: [], count: width)
        var finalBlocks = [Int](repeating: 0, count: width)
        for (lane, range) in ranges.enumerated() {
            let tail = Int(range.length - done[lane])
            var block = [UInt8](repeating: 0, count: tail < 56 ? 64 : 128)
            if tail > 0 { try file.readArtifactExactly(into: &block, count: tail, at: range.offset + done[lane]) }
            block[tail] = 0x80
            let bits = UInt64(range.length) &* 8
            for byte in 0..<8 { block[block.count - 8 + byte] = UInt8(truncatingIfNeeded: bits >> (8 * UInt64(byte))) }
            finals[lane] = block
            finalBlocks[lane] = block.count / 64
        }
        state.compress(finals, blocks: finalBlocks)
        return ranges.indices.map { state.digest(lane: $0) }
    }

    /// A, B, C and D of every lane, laid out as the kernel wants them.
    private struct LaneState {
        private var words: [UInt32]
        private let kernel: Kernel

        init(kernel: Kernel) {
            self.kernel = kernel
            words = [0x6745_2301, 0xefcd_ab89, 0x98ba_dcfe, 0x1032_5476].flatMap { [UInt32](repeating: $0, count: MD5Lanes.width) }
        }

        /// Advances lane i by `blocks[i]` blocks of `messages[i]`. Lanes with fewer blocks than the
        /// most are run on zeros and put back afterwards, so they stay where they were.
        mutating func compress(_ messages: [[UInt8]], blocks: [Int]) {
            let width = MD5Lanes.width
            var remaining = blocks
            var consumed = [Int](repeating: 0, count: width)
            let zeros = [UInt8](repeating: 0, count: MD5Lanes.roundSize)
            while let step = remaining.filter({ $0 > 0 }).min() {
                let held = (0..<width).filter { remaining[$0] == 0 }
                let saved = held.map { lane in (0..<4).map { words[$0 * width + lane] } }
                withPointers(messages, zeros: zeros, offsets: consumed, active: remaining.map { $0 > 0 }) { pointers in
                    words.withUnsafeMutableBufferPointer { state in
                        lanes_md5_compress_lanes(kernel.index, state.baseAddress, pointers, step)
                    }
                }
                for (index, lane) in held.enumerated() {
                    for word in 0..<4 { words[word * width + lane] = saved[index][word] }
                }
                for lane in 0..<width where remaining[lane] > 0 {
                    remaining[lane] -= step
                    consumed[lane] += step * 64
                }
            }
        }

        func digest(lane: Int) -> [UInt8] {
            (0..<4).flatMap { word -> [UInt8] in
                let value = words[word * MD5Lanes.width + lane]
                return (0..<4).map { UInt8(truncatingIfNeeded: value >> (8 * UInt32($0))) }
            }
        }

        /// Calls `body` with one pointer per lane: into its message at its offset, or at zeros.
        private func withPointers(_ messages: [[UInt8]], zeros: [UInt8], offsets: [Int], active: [Bool],
                                  _ body: (UnsafePointer<UnsafePointer<UInt8>?>) -> Void) {
            zeros.withUnsafeBufferPointer { zeroBytes in
                func nest(_ lane: Int, _ pointers: [UnsafePointer<UInt8>?]) {
                    guard lane < MD5Lanes.width else {
                        pointers.withUnsafeBufferPointer { body($0.baseAddress!) }
                        return
                    }
                    guard lane < messages.count, active[lane] else { return nest(lane + 1, pointers + [zeroBytes.baseAddress]) }
                    messages[lane].withUnsafeBufferPointer { bytes in nest(lane + 1, pointers + [bytes.baseAddress! + offsets[lane]]) }
                }
                nest(0, [])
            }
        }
    }
}
