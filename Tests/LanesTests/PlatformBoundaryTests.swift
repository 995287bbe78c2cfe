import Foundation
import LanesTestSupport
import Testing

/// Only `LanesPlatform` (and the C shim targets) may name an OS: its C library module, an OS
/// condition, or a call that exists on one OS only. Everything else goes through LanesPlatform's
/// services, so a Mac build breaks in one module, not in twenty (issue 19).
@Suite(.timeLimit(.minutes(3))) struct PlatformBoundaryTests {
    static let root = LanesCommandLine.repositoryRoot

    /// Names of OS modules and OS conditions, forbidden in every Swift file outside the platform module.
    static let osNames = [
        #"import\s+(Glibc|Darwin|Musl)\b"#, #"canImport\(\s*(Glibc|Darwin|Musl)\s*\)"#, #"\bos\(\s*(Linux|macOS)\s*\)"#,
        #"\b(Glibc|Darwin|Musl)\."#,
    ]
    /// Calls, fields and paths that exist on one OS only.
    static let osCalls = [
        #"\btimerfd"#, #"\bsignalfd"#, #"\binotify"#, #"\bepoll"#, #"\bkqueue\b"#, #"\bkevent\b"#, #"\bprctl\b"#, #"/proc/"#,
        #"\bsendfile\b"#, #"\benviron\b"#, #"\bst_mtim\b"#, #"\bst_mtimespec\b"#, #"\bSOCK_CLOEXEC\b"#, #"\bMSG_NOSIGNAL\b"#,
        #"\bSO_NOSIGPIPE\b"#, #"_NSGetExecutablePath"#, #"_NSGetEnviron"#, #"\bPT_DENY_ATTACH\b"#, #"\bpthread_t\b"#,
        #"__sigaction_handler"#, #"\.rawValue\)\s*\|\s*Int32\(SOCK_"#, #"SOCK_STREAM\.rawValue"#, #"libLanes\.(so|dylib)"#,
    ]

    /// The Swift files of `folders` (relative to the repository), outside the platform module and fixtures.
    static func files(in folders: [String]) -> [String] {
        folders.flatMap { folder -> [String] in
            let base = root.appendingPathComponent(folder).path
            let names = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
            return names.filter { name in
                name.hasSuffix(".swift") && !name.contains("/Fixtures/") && !name.contains(".work/")
                    && !(folder == "Sources" && name.hasPrefix("LanesPlatform/"))
                    && !name.hasSuffix("PlatformBoundaryTests.swift")
            }.map { base + "/" + $0 }
        }
    }

    /// `path:line: text` for each line of `files` that matches one of `patterns`.
    static func findings(in files: [String], patterns: [String]) throws -> [String] {
        let expressions = try patterns.map { try NSRegularExpression(pattern: $0) }
        var found: [String] = []
        for path in files {
            let text = try String(contentsOfFile: path, encoding: .utf8)
            for (number, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                let line = String(line)
                let range = NSRange(line.startIndex..., in: line)
                if expressions.contains(where: { $0.firstMatch(in: line, range: range) != nil }) {
                    found.append("\(path.dropFirst(root.path.count + 1)):\(number + 1): \(line.trimmingCharacters(in: .whitespaces))")
                }
            }
        }
        return found
    }

    @Test func productionCodeNamesNoOperatingSystem() throws {
        let files = Self.files(in: ["Sources", "Tools"])
        #expect(files.count > 100)
        let found = try Self.findings(in: files, patterns: Self.osNames + Self.osCalls)
        #expect(found.isEmpty, "outside LanesPlatform:\n\(found.prefix(30).joined(separator: "\n"))")
    }

    /// Tests and benchmarks may read Linux's `/proc` in measurements and leak checks that are
    /// Linux-only by nature, but they compile on every OS: no OS module, condition or one-OS call.
    @Test func testAndBenchmarkCodeCompilesOnEveryOperatingSystem() throws {
        let found = try Self.findings(in: Self.files(in: ["Tests", "Benchmarks"]),
                                      patterns: Self.osNames + Self.osCalls.filter { $0 != "/proc/" && $0 != #"libLanes\.(so|dylib)"# })
        #expect(found.isEmpty, "\(found.prefix(30).joined(separator: "\n"))")
    }

    /// The test above must see a forbidden name when one is there.
    @Test func theScanFindsAForbiddenName() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.path + "/Sample.swift"
        try "import Foundation\n#if canImport(Glibc)\nlet fd = timerfd_create(0, 0)\n#endif\n".write(toFile: file, atomically: true, encoding: .utf8)
        let found = try Self.findings(in: [file], patterns: Self.osNames + Self.osCalls)
        #expect(found.count == 2)
    }
}
