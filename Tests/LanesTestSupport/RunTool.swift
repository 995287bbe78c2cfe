// Issue 35: kept only for the suites that landed after the conversion to `Program` (Google Play,
// match audit, and a few CLI and platform suites). It blocks a thread of the cooperative pool;
// new tests use `Program` and `LanesCommandLine`, and these callers move to them next.
import Foundation
import Synchronization

/// Runs a tool (argv, no shell) and returns its merged output; secrets go in `environment`.
public func runTool(_ arguments: [String], environment: [String: String] = [:]) throws -> String {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    process.environment = ProcessInfo.processInfo.environment.merging(environment) { $1 }
    let pipe = Pipe()
    process.standardOutput = pipe
    process.standardError = pipe
    try process.run()
    let data = pipe.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    return String(decoding: data, as: UTF8.self)
}

/// Runs a program (argv, no shell) in `directory` and returns its exit status, standard output and
/// standard error apart. Both pipes are drained at once, so a chatty stderr cannot block the child.
public func runProgram(_ arguments: [String], in directory: String? = nil) throws -> (status: Int32, output: String, error: String) {
    let process = Process()
    process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
    process.arguments = arguments
    if let directory { process.currentDirectoryURL = URL(fileURLWithPath: directory) }
    let output = Pipe()
    let errors = Pipe()
    process.standardOutput = output
    process.standardError = errors
    try process.run()
    let errorData = Mutex(Data())
    let reader = Thread { errorData.withLock { $0 = errors.fileHandleForReading.readDataToEndOfFile() } }
    reader.start()
    let outputData = output.fileHandleForReading.readDataToEndOfFile()
    process.waitUntilExit()
    while !reader.isFinished { Thread.sleep(forTimeInterval: 0.001) }
    return (process.terminationStatus, String(decoding: outputData, as: UTF8.self),
            String(decoding: errorData.withLock { $0 }, as: UTF8.self))
}
