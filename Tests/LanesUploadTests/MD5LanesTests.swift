import Foundation
import LanesTestSupport
@testable import LanesUpload
import Synchronization
import Testing
@testable import LanesHTTP
import LanesPlatform

/// Every build of the eight-lane MD5 kernel this CPU runs, against RFC 1321's test suite and against
/// OpenSSL's MD5, for ranges of every length around the block and padding boundaries, several
/// lengths in one batch.
@Suite struct MD5LanesTests {
    let folder: String

    init() throws {
        folder = NSTemporaryDirectory() + "md5-lanes-\(getpid())-\(UInt32.random(in: 0...UInt32.max))"
        try FileManager.default.createDirectory(atPath: folder, withIntermediateDirectories: true)
    }

    private func write(_ bytes: [UInt8], as name: String) throws -> String {
        let path = folder + "/" + name
        try Data(bytes).write(to: URL(fileURLWithPath: path))
        return path
    }

    @Test func rfc1321TestSuiteInOneBatch() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let messages = ["", "a", "abc", "message digest", "abcdefghijklmnopqrstuvwxyz",
                        "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789",
                        String(repeating: "1234567890", count: 8)]
        let expected = ["d41d8cd98f00b204e9800998ecf8427e", "0cc175b9c0f1b6a831c399e269772661", "900150983cd24fb0d6963f7d28e17f72",
                        "f96b697d7cb7938d525a2f31aaf161d0", "c3fcd3d76192e4007dfb496cca67e13b", "d174ab98d277d9f5a5611c2c9f419d9f",
                        "57edf4a22be3c955ac49da2e2107b67a"]
        // All seven messages, one after another in one file, each hashed as its own range.
        let path = try write(messages.flatMap { Array($0.utf8) }, as: "rfc1321")
        var offset: Int64 = 0
        let ranges = messages.map { message -> (offset: Int64, length: Int64) in
            defer { offset += Int64(message.utf8.count) }
            return (offset, Int64(message.utf8.count))
        }
        for kernel in MD5Lanes.Kernel.available {
            #expect(try MD5Lanes.digests(path: path, ranges: ranges, kernel: kernel).map(\.hex) == expected, "kernel \(kernel.name)")
        }
    }

    @Test func matchesOpenSSLAroundEveryBoundary() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let seed = UInt64.random(in: 0...UInt64.max)
        print("MD5LanesTests seed \(seed)")
        var random = SplitMix64(seed: seed)
        let size = 3 * MD5Lanes.roundSize + 1000
        let bytes = (0..<size).map { _ in UInt8.random(in: 0...255, using: &random) }
        let path = try write(bytes, as: "random")
        // Lengths at the padding edges (55/56, 63/64/65, 119/120), a round and a bit, and empty.
        let lengths: [Int64] = [0, 1, 55, 56, 57, 63, 64, 65, 119, 120, 128, 1000, Int64(MD5Lanes.roundSize) - 1,
                                Int64(MD5Lanes.roundSize) + 65, Int64(2 * MD5Lanes.roundSize) + 7]
        for round in 0..<6 {
            let count = Int.random(in: 1...MD5Lanes.width, using: &random)
            let ranges = (0..<count).map { _ -> (offset: Int64, length: Int64) in
                let length = lengths.randomElement(using: &random)!
                return (Int64.random(in: 0...(Int64(size) - length), using: &random), length)
            }
            let expected = ranges.map { range in
                Digest.hash(.md5, Array(bytes[Int(range.offset)..<Int(range.offset + range.length)])).hex
            }
            let described = ranges.map { "\($0.offset)+\($0.length)" }.joined(separator: ", ")
            for kernel in MD5Lanes.Kernel.available {
                #expect(try MD5Lanes.digests(path: path, ranges: ranges, kernel: kernel).map(\.hex) == expected,
                        "kernel \(kernel.name), round \(round), seed \(seed): \(described)")
            }
        }
    }

    @Test func theFastestKernelComesFirstAndTheGenericOneIsAlwaysThere() {
        let names = MD5Lanes.Kernel.available.map(\.name)
        print("MD5 kernels on this CPU: \(names.joined(separator: ", "))")
        #expect(names.last == "generic")
        #expect(MD5Lanes.Kernel.fastest.name == names.first)
    }

    @Test func partChecksumsAcrossBatchesFromSeveralThreads() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let seed = UInt64.random(in: 0...UInt64.max)
        print("MD5LanesTests seed \(seed)")
        var random = SplitMix64(seed: seed)
        // Eleven parts of 1000 bytes, the last one 500: a full batch of eight, then three.
        let bytes = (0..<10_500).map { _ in UInt8.random(in: 0...255, using: &random) }
        let path = try write(bytes, as: "parts")
        let checksums = PartChecksums(path: path, size: 10_500, partSize: 1000, count: 11, options: S3UploadOptions(checksum: .md5))
        let found = Mutex<[Int: PayloadChecksum]>([:])
        // Four threads ask in an order that makes them meet on both batches.
        ParallelWorkers.run(count: 4) { worker in
            for number in stride(from: 11 - worker, through: 1, by: -4) {
                let sum = try? checksums.checksum(part: number)
                found.withLock { $0[number] = sum }
            }
        }
        let expected = (1...11).map { number in
            PayloadChecksum.md5(Digest.hash(.md5, Array(bytes[(number - 1) * 1000..<min(10_500, number * 1000)])))
        }
        #expect(found.withLock { dictionary in (1...11).map { dictionary[$0] } } == expected, "seed \(seed)")
    }

    @Test func aCancelledTransferStopsTheHashing() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try write([UInt8](repeating: 1, count: 4 * MD5Lanes.roundSize), as: "cancelled")
        let cancellation = TransferCancellation()
        cancellation.cancel()
        let error = try #require(throws: UploadError.self) {
            try MD5Lanes.digests(path: path, ranges: [(0, Int64(4 * MD5Lanes.roundSize))], cancellation: cancellation)
        }
        #expect(error.message.contains("cancelled"))
        #expect(try MD5Lanes.digests(path: path, ranges: [(0, 64)], cancellation: TransferCancellation()).count == 1)
    }

    @Test func aFileThatShrankIsAnError() throws {
        defer { try? FileManager.default.removeItem(atPath: folder) }
        let path = try write([UInt8](repeating: 7, count: 100), as: "short")
        #expect(throws: UploadError.self) { try MD5Lanes.digests(path: path, ranges: [(0, 100), (50, 200)]) }
    }
}
