// Issue 35: kept only for the suites that landed after the conversion to `Program` (Google Play,
// match audit, and a few CLI and platform suites). It blocks a thread of the cooperative pool;
// new tests use `Program` and `LanesCommandLine`, and these callers move to them next.
import Foundation
import Testing

/// Runs the built `lanes` executable the way a user does, capturing its output and exit status.
public struct LanesProcess {
    public struct Result {
        public let status: Int32
        public let standardOutput: String
        public let standardError: String
        public var output: String { standardOutput + standardError }
    }

    /// The checkout this test support was compiled from.
    public static let repositoryRoot = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// The CLI tests' fixture projects.
    public static let fixtures = repositoryRoot.appendingPathComponent("Tests/LanesCLITests/Fixtures")

    /// The `lanes` that `swift build` made for this checkout.
    public static var executable: String {
        get throws {
            let path = repositoryRoot.appendingPathComponent(".build/debug/lanes").path
            try #require(FileManager.default.isExecutableFile(atPath: path),
                         "\(path) is missing: run `swift build` (make test does) before the tests")
            return path
        }
    }

    public let cacheDirectory: URL
    public var environment: [String: String]

    /// A lanes with a cache of its own, so tests do not see each other's compiled runners.
    public init(cacheDirectory: URL = LanesProcess.temporaryDirectory("cache")) {
        self.cacheDirectory = cacheDirectory
        var environment = ProcessInfo.processInfo.environment
        environment["LANES_CACHE_DIR"] = cacheDirectory.path
        environment["NO_COLOR"] = "1"
        for name in ["CERTIFICATE_PASSWORD", "KEYCHAIN_PASSWORD", "KEYCHAIN_NAME", "CANARY", "LANES_HOME"] {
            environment[name] = nil
        }
        self.environment = environment
    }

    public static func temporaryDirectory(_ label: String) -> URL {
        let url = FileManager.default.temporaryDirectory.appendingPathComponent("lanes-tests-\(label)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
        return url
    }

    /// A copy of a fixture project in a fresh directory, so edits and dotenv files stay local.
    public static func project(_ fixture: String) throws -> URL {
        let directory = temporaryDirectory(fixture)
        let source = fixtures.appendingPathComponent(fixture)
        for name in try FileManager.default.contentsOfDirectory(atPath: source.path) {
            try FileManager.default.copyItem(at: source.appendingPathComponent(name), to: directory.appendingPathComponent(name))
        }
        return directory
    }

    public func run(_ arguments: [String], in directory: URL, extraEnvironment: [String: String] = [:],
             executable: String? = nil) throws -> Result {
        let process = try start(arguments, in: directory, extraEnvironment: extraEnvironment, executable: executable)
        return process.finish()
    }

    public func start(_ arguments: [String], in directory: URL, extraEnvironment: [String: String] = [:],
               executable: String? = nil) throws -> Running {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: try executable ?? Self.executable)
        process.arguments = arguments
        process.currentDirectoryURL = directory
        process.environment = environment.merging(extraEnvironment) { $1 }
        let output = Pipe()
        let errors = Pipe()
        process.standardOutput = output
        process.standardError = errors
        process.standardInput = FileHandle.nullDevice
        try process.run()
        // Foundation may hand the launch to another thread and return before the child exists, with
        // processIdentifier still 0; a signal sent then (`kill(0, ...)`) would hit the test runner's
        // own process group. Wait until the child has a pid.
        let deadline = Date().addingTimeInterval(120)
        while process.processIdentifier == 0, Date() < deadline { Thread.sleep(forTimeInterval: 0.005) }
        precondition(process.processIdentifier != 0, "lanes did not start within 120 s")
        return Running(process: process, output: output, errors: errors)
    }

    /// A started `lanes`; reading both pipes on their own threads so neither can fill up and block.
    public final class Running: @unchecked Sendable {
        public let process: Process
        private var outputData = Data()
        private var errorData = Data()
        private let group = DispatchGroup()

        init(process: Process, output: Pipe, errors: Pipe) {
            self.process = process
            group.enter()
            DispatchQueue.global().async { [self] in
                outputData = output.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
            group.enter()
            DispatchQueue.global().async { [self] in
                errorData = errors.fileHandleForReading.readDataToEndOfFile()
                group.leave()
            }
        }

        public func finish() -> Result {
            process.waitUntilExit()
            group.wait()
            return Result(status: process.terminationStatus,
                          standardOutput: String(decoding: outputData, as: UTF8.self),
                          standardError: String(decoding: errorData, as: UTF8.self))
        }
    }
}
