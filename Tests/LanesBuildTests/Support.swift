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

/// Runs a program and returns its exit status and standard output (standard error is kept apart).
func runProgram(_ arguments: [String], in directory: String? = nil) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let output = Pipe()
    let error = Pipe()
    process.standardOutput = output
    process.standardError = error
    try process.run()
    let outData = output.fileHandleForReading.readDataToEndOfFile()
    let errData = error.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return (process.terminationStatus, String(decoding: outData, as: UTF8.self), String(decoding: errData, as: UTF8.self))
}

/// A fresh folder under the system temporary directory, removed by the caller.
func temporaryDirectory(_ label: String) throws -> String {
    let path = NSTemporaryDirectory() + "lanes-build-\(label)-\(UUID().uuidString)"
    try FileManager.default.createDirectory(atPath: path, withIntermediateDirectories: true)
    return path
}
