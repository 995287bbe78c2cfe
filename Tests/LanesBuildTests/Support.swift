import LanesTestSupport
import Foundation
@testable import LanesBuild

/// Fixtures live next to this file; tests read them by path, never through the bundle.
enum Fixture {
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().appendingPathComponent("Fixtures").path

    static func path(_ relative: String) -> String { root + "/" + relative }

    static func text(_ relative: String) throws -> String {
        try String(contentsOfFile: path(relative), encoding: .utf8)
    }

    static func bytes(_ relative: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: path(relative))))
    }

    static func bytesAt(_ absolutePath: String) throws -> [UInt8] {
        Array(try Data(contentsOf: URL(fileURLWithPath: absolutePath)))
    }

    /// The summary of a recorded log, fed line by line as `ProcessRunning` hands lines over.
    static func summary(ofLog name: String) throws -> BuildLogSummary {
        var summarizer = BuildLogSummarizer()
        let text = try self.text("logs/" + name)
        var lines = text.split(separator: "\n", omittingEmptySubsequences: false)
        if lines.last == "" { lines.removeLast() }
        for line in lines { summarizer.consume(line: String(line)) }
        return summarizer.finish()
    }
}
