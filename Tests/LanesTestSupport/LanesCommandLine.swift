import Foundation
import LanesPlatform
import Testing

/// The built `lanes` run the way a user runs it, for the live tests (tagged `.live`): a cache of its
/// own per instance, so tests do not see each other's compiled runners, and fixture projects
/// copied to fresh folders. Processes start through `Program`, the tests' one launcher.
public struct LanesCommandLine: Sendable {
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

    /// Another product of this checkout's build (`lanes-tool`, a helper).
    public static func built(_ product: String) -> String {
        repositoryRoot.appendingPathComponent(".build/debug/\(product)").path
    }

    public let cacheDirectory: URL
    public var environment: [String: String]

    /// A lanes with a cache of its own, so tests do not see each other's compiled runners.
    public init(cacheDirectory: URL = LanesCommandLine.temporaryDirectory("cache")) {
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

    /// Runs `lanes ARGUMENTS` (or `executable ARGUMENTS`) in `directory` to its end.
    public func run(_ arguments: [String], in directory: URL, extraEnvironment: [String: String] = [:],
                    executable: String? = nil) async throws -> ProgramResult {
        await (try start(arguments, in: directory, extraEnvironment: extraEnvironment, executable: executable)).finish()
    }

    /// Starts `lanes ARGUMENTS`; it runs on while the test does other things.
    public func start(_ arguments: [String], in directory: URL, extraEnvironment: [String: String] = [:],
                      executable: String? = nil) throws -> RunningProgram {
        try Program.start([try executable ?? Self.executable] + arguments, in: directory.path,
                          environment: environment.merging(extraEnvironment) { $1 }, input: [])
    }
}

extension Tag {
    /// Runs a built binary (`lanes`, `lanes-tool`, a helper) as a user does, in a process of its own.
    @Tag public static var live: Self
}
