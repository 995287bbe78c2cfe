import Foundation
import LanesTestSupport
import Testing

/// Every Swift file keeps the layout `.editorconfig` declares: UTF-8, LF line ends, four-space
/// indentation (no tabs), no trailing whitespace, a final newline.
@Suite(.timeLimit(.minutes(3))) struct SourceLayoutTests {
    static let root = LanesCommandLine.repositoryRoot

    static var swiftFiles: [String] {
        ["Sources", "Tests", "Tools", "Benchmarks"].flatMap { folder in
            let base = root.appendingPathComponent(folder).path
            let names = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
            return names.filter { $0.hasSuffix(".swift") && !$0.contains("/Fixtures/") && !$0.contains(".work/") }.map { base + "/" + $0 }
        }
    }

    @Test func swiftFilesFollowTheEditorConfig() throws {
        var problems: [String] = []
        for path in Self.swiftFiles {
            let bytes = try Data(contentsOf: URL(fileURLWithPath: path))
            guard let text = String(data: bytes, encoding: .utf8) else { problems.append("\(path): not UTF-8"); continue }
            if !text.hasSuffix("\n") { problems.append("\(path): no final newline") }
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if line.hasSuffix("\r") { problems.append("\(path):\(number + 1): CRLF line end") }
                if line.hasPrefix("\t") { problems.append("\(path):\(number + 1): tab indentation") }
                if line.last == " " || line.last == "\t" { problems.append("\(path):\(number + 1): trailing whitespace") }
            }
        }
        #expect(Self.swiftFiles.count > 100)
        #expect(problems.isEmpty, "\(problems.prefix(20).joined(separator: "\n"))")
    }
}
