import Foundation
import Testing
@testable import LanesXcode

@Suite(.timeLimit(.minutes(3))) struct CorpusRoundTripTests {
    @Test(.enabled(if: TestData.corpusAvailable, TestData.corpusAbsent), arguments: TestData.corpusFiles)
    func readWriteIsByteIdentical(file: URL) throws {
        let bytes = try TestData.bytes(file)
        let project = try XcodeProject(bytes: bytes, path: file.lastPathComponent)
        #expect(project.document.bytes == bytes)
        #expect(!project.targets.isEmpty)
        // An editor with no edits writes exactly what it read.
        #expect(try PBXEditor(document: project.document).apply().bytes == bytes)
    }

    @Test(.enabled(if: TestData.corpusAvailable, TestData.corpusAbsent), arguments: TestData.corpusFiles)
    func readerAgreesWithFoundation(file: URL) throws {
        let bytes = try TestData.bytes(file)
        let document = try PBXDocument(bytes: bytes)
        let reference = try #require(try PropertyListSerialization.propertyList(from: Data(bytes), format: nil) as? NSDictionary)
        #expect(plainValue(.dictionary(document.root)) as? NSDictionary == reference)
    }
}

/// The tree as Foundation property-list objects, to compare with PropertyListSerialization.
func plainValue(_ value: PBXValue) -> Any {
    switch value {
    case .string(let string): return string.value as NSString
    case .data(let data): return Data(data.bytes) as NSData
    case .array(let array): return array.elements.map(plainValue) as NSArray
    case .dictionary(let dictionary):
        let result = NSMutableDictionary()
        for entry in dictionary.entries { result[entry.key.value] = plainValue(entry.value) }
        return result
    }
}
