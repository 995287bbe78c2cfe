import LanesTestSupport
import Foundation
import Testing
@testable import LanesXcode

/// Random damage to real files never crashes the reader: it either parses (and then round-trips
/// byte for byte) or reports an error with a position inside the file. Bounded here; the seeds are
/// fixed so a failure reproduces.
@Suite(.timeLimit(.minutes(3))) struct FuzzTests {
    private static var samples: [URL] {
        let corpus = TestData.corpusFiles.filter { (try? FileManager.default.attributesOfItem(atPath: $0.path)[.size] as? Int ?? 0) ?? 0 < 200_000 }
        return [TestData.brewerPBXProj] + corpus
    }

    @Test(arguments: samples)
    func mutationsNeverCrashTheReader(file: URL) throws {
        let original = try TestData.bytes(file)
        var generator = SplitMix64(seed: UInt64(original.count))
        let interesting: [UInt8] = Array("{}();=,\"'\\/*<>U0\n ".utf8) + [0x00, 0x80, 0xC3, 0xFF]
        for _ in 0..<60 {
            var bytes = original
            for _ in 0..<(1 + Int(generator.next() % 8)) {
                guard !bytes.isEmpty else { break }
                let index = Int(generator.next() % UInt64(bytes.count))
                switch generator.next() % 4 {
                case 0: bytes[index] = interesting[Int(generator.next() % UInt64(interesting.count))]
                case 1: bytes.remove(at: index)
                case 2: bytes.insert(interesting[Int(generator.next() % UInt64(interesting.count))], at: index)
                default: bytes.removeSubrange(index..<min(bytes.count, index + Int(generator.next() % 64)))
                }
            }
            do {
                let document = try PBXDocument(bytes: bytes)
                #expect(try PBXEditor(document: document).apply().bytes == bytes)
                _ = try? XcodeProject(document: document)
            } catch let error as PBXParseError {
                #expect(error.offset <= bytes.count && error.line >= 1 && error.column >= 1)
            }
        }
    }

    @Test func truncationsAtEveryPointOfASmallFileAreErrors() throws {
        let original = try TestData.bytes(TestData.brewerPBXProj)
        for length in stride(from: 0, to: original.count - 2, by: 97) {
            #expect(throws: PBXParseError.self) { _ = try PBXDocument(bytes: Array(original[..<length])) }
        }
    }
}
