import Foundation
import LanesTestSupport
import Testing

/// Only `LanesPlatform` (and the C shim targets) may name an OS: its C library module, an OS
/// condition, or a call that exists on one OS only. Everything else goes through LanesPlatform's
/// services, so a Mac build breaks in one module, not in twenty (issue 19).
@Suite struct PlatformBoundaryTests {
    static let root = LanesProcess.repositoryRoot

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
    /// C calls and values whose types differ between glibc and Darwin, or that one of them lacks: spelled
    /// for one OS they compile there and fail on the other, and only `LanesPlatform` is type-checked for
    /// both (`make typecheck-darwin`). Use `SocketOptions`, `FileDescriptorIO.pendingBytes`,
    /// `AllocatorTuning`, `ProcessUsage` and `ChildProcess.newFileActions()` instead.
    static let widthSensitiveCalls = [
        #"\btimeval\("#, #"\bioctl\("#, #"\bsetsockopt\("#, #"\bFIONREAD\b"#, #"\bmallopt\b"#,
        #"\bposix_spawn_file_actions_t\(\)"#, #"\bposix_spawnattr_t\(\)"#, #"\bRUSAGE_SELF\.rawValue"#, #"__rusage_who"#,
    ]

    /// The Swift files of `folders` (relative to the repository), outside the platform module and fixtures.
    static func files(in folders: [String]) -> [String] {
        folders.flatMap { folder -> [String] in
            let base = root.appendingPathComponent(folder).path
            let names = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
            return names.filter { name in
                name.hasSuffix(".swift") && !name.contains("/Fixtures/") && !name.contains(".work/")
                    && !(folder == "Sources" && name.hasPrefix("LanesPlatform/"))
                    // The macOS SDK's stand-in and its canary of Linux spellings name the OS by design.
                    && !(folder == "Tools" && name.hasPrefix("darwin-typecheck/"))
                    && !name.hasSuffix("PlatformBoundaryTests.swift")
            }.map { base + "/" + $0 }
        }
    }

    /// `path:line: text` for each line of `files` that matches one of `patterns`.
    static func findings(in files: [String], patterns: [String]) throws -> [String] {
        let expressions = try patterns.map { try NSRegularExpression(pattern: $0) }
        var found: [String] = []
        for path in files {
            let text = codeOnly(try String(contentsOfFile: path, encoding: .utf8))
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

    /// `text` with the insides of comments and string literals blanked (newlines kept), so that a test's
    /// hostile input or a comment about Darwin is not taken for code. Interpolations count as string.
    static func codeOnly(_ text: String) -> String {
        var output: [UInt8] = []
        let bytes = Array(text.utf8)
        output.reserveCapacity(bytes.count)
        var index = 0
        func blank(_ byte: UInt8) { output.append(byte == UInt8(ascii: "\n") ? byte : UInt8(ascii: " ")) }
        func starts(_ literal: String, at position: Int) -> Bool {
            let pattern = Array(literal.utf8)
            return position + pattern.count <= bytes.count && Array(bytes[position..<position + pattern.count]) == pattern
        }
        while index < bytes.count {
            if starts("//", at: index) {
                while index < bytes.count && bytes[index] != UInt8(ascii: "\n") { blank(bytes[index]); index += 1 }
            } else if starts("/*", at: index) {
                while index < bytes.count && !starts("*/", at: index) { blank(bytes[index]); index += 1 }
                if index < bytes.count { blank(bytes[index]); blank(bytes[index + 1]); index += 2 }
            } else if bytes[index] == UInt8(ascii: "#") || bytes[index] == UInt8(ascii: "\"") {
                var hashes = 0
                while index + hashes < bytes.count && bytes[index + hashes] == UInt8(ascii: "#") { hashes += 1 }
                guard index + hashes < bytes.count, bytes[index + hashes] == UInt8(ascii: "\"") else {
                    output.append(bytes[index]); index += 1; continue
                }
                let multiline = starts("\"\"\"", at: index + hashes)
                let quote = multiline ? "\"\"\"" : "\""
                let closing = Array((quote + String(repeating: "#", count: hashes)).utf8)
                let escape = Array(("\\" + String(repeating: "#", count: hashes)).utf8)
                for _ in 0..<(hashes + quote.utf8.count) { output.append(bytes[index]); index += 1 }
                while index < bytes.count {
                    if Array(bytes[index..<min(bytes.count, index + escape.count)]) == escape {
                        for _ in 0..<min(escape.count + 1, bytes.count - index) { blank(bytes[index]); index += 1 }
                    } else if Array(bytes[index..<min(bytes.count, index + closing.count)]) == closing {
                        for _ in 0..<closing.count { output.append(bytes[index]); index += 1 }
                        break
                    } else if !multiline && bytes[index] == UInt8(ascii: "\n") {
                        break
                    } else {
                        blank(bytes[index]); index += 1
                    }
                }
            } else {
                output.append(bytes[index]); index += 1
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    @Test func codeOnlyBlanksCommentsAndStringsButKeepsCode() {
        let sample = "import Glibc // import Darwin\nlet a = \"import Musl\\\"\" + #\"os(Linux)\"#\n/* kqueue */ epoll()\n"
        let code = Self.codeOnly(sample).split(separator: "\n").map { $0.filter { $0 != " " } }
        #expect(code == ["importGlibc", "leta=\"\"+#\"\"#", "epoll()"])
    }

    @Test func productionCodeNamesNoOperatingSystem() throws {
        let files = Self.files(in: ["Sources", "Tools"])
        #expect(files.count > 100)
        let found = try Self.findings(in: files, patterns: Self.osNames + Self.osCalls + Self.widthSensitiveCalls)
        #expect(found.isEmpty, "outside LanesPlatform:\n\(found.prefix(30).joined(separator: "\n"))")
    }

    /// Tests and benchmarks may read Linux's `/proc` in measurements and leak checks that are
    /// Linux-only by nature, but they compile on every OS: no OS module, condition or one-OS call.
    @Test func testAndBenchmarkCodeCompilesOnEveryOperatingSystem() throws {
        let found = try Self.findings(in: Self.files(in: ["Tests", "Benchmarks"]),
                                      patterns: Self.osNames + Self.osCalls.filter { $0 != "/proc/" && $0 != #"libLanes\.(so|dylib)"# }
                                          + Self.widthSensitiveCalls)
        #expect(found.isEmpty, "\(found.prefix(30).joined(separator: "\n"))")
    }

    /// Apple's SDK has no FoundationEssentials (Apple platforms use the Foundation of the OS), so every
    /// import of it is guarded and falls back to Foundation with the same access level, in every Swift
    /// file of the repository: `#if canImport(FoundationEssentials)`, the import, `#else`, the same
    /// import of Foundation, `#endif`.
    @Test func foundationEssentialsIsImportedOnlyBehindItsGuard() throws {
        let files = Self.swiftFiles(in: ["Sources", "Tests", "Benchmarks", "Tools", "Example"]) + [Self.root.appendingPathComponent("Lanefile.swift").path]
        #expect(files.count > 100)
        let found = try files.flatMap { try Self.unguardedFoundationEssentials(in: $0) }
        #expect(found.isEmpty, "\(found.prefix(30).joined(separator: "\n"))")
    }

    /// Every Swift file under `folders`, the platform module included.
    static func swiftFiles(in folders: [String]) -> [String] {
        folders.flatMap { folder -> [String] in
            let base = root.appendingPathComponent(folder).path
            let names = FileManager.default.enumerator(atPath: base)?.compactMap { $0 as? String } ?? []
            return names.filter { $0.hasSuffix(".swift") && !$0.contains(".work/") && !$0.contains(".build/") }.map { base + "/" + $0 }
        }
    }

    /// `path:line: text` for each import of FoundationEssentials in `path` that is not the first branch
    /// of the guard, or whose `#else` branch does not import Foundation with the same access level.
    static func unguardedFoundationEssentials(in path: String) throws -> [String] {
        let lines = try String(contentsOfFile: path, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false)
            .map { $0.trimmingCharacters(in: .whitespaces) }
        let importPattern = try NSRegularExpression(pattern: #"^((?:@\w+\s+)*(?:public|package|internal|fileprivate|private)?\s*)import\s+FoundationEssentials\b"#)
        var found: [String] = []
        for (index, line) in lines.enumerated() {
            guard let match = importPattern.firstMatch(in: line, range: NSRange(line.startIndex..., in: line)),
                  let prefixRange = Range(match.range(at: 1), in: line) else { continue }
            let prefix = line[prefixRange].trimmingCharacters(in: .whitespaces)
            let fallback = (prefix.isEmpty ? "" : prefix + " ") + "import Foundation"
            let guarded = index >= 1 && lines[index - 1] == "#if canImport(FoundationEssentials)"
                && index + 3 < lines.count && lines[index + 1] == "#else" && lines[index + 2] == fallback && lines[index + 3] == "#endif"
            if !guarded { found.append("\(path.dropFirst(root.path.count + 1)):\(index + 1): \(line)") }
        }
        return found
    }

    /// The guard check sees a bare import, a guard without the Foundation branch and one whose access
    /// levels differ, and accepts the ecosystem's form.
    @Test func theGuardCheckFindsAnUnguardedImport() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let samples = [
            "import FoundationEssentials\n",
            "#if canImport(FoundationEssentials)\nimport FoundationEssentials\n#endif\n",
            "#if canImport(FoundationEssentials)\npublic import FoundationEssentials\n#else\nimport Foundation\n#endif\n",
            "#if canImport(FoundationEssentials)\ninternal import FoundationEssentials\n#else\ninternal import Foundation\n#endif\n",
        ]
        var counts: [Int] = []
        for (number, text) in samples.enumerated() {
            let file = folder.path + "/Sample\(number).swift"
            try text.write(toFile: file, atomically: true, encoding: .utf8)
            counts.append(try Self.unguardedFoundationEssentials(in: file).count)
        }
        #expect(counts == [1, 1, 1, 0])
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

    /// Each width-sensitive spelling is seen, as a test or a benchmark writes it.
    @Test func theScanFindsWidthSensitiveCalls() throws {
        let folder = try TemporaryDirectory()
        defer { folder.remove() }
        let file = folder.path + "/Sample.swift"
        try """
            var time = timeval(tv_sec: 1, tv_usec: 0)
            setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &time, socklen_t(MemoryLayout<timeval>.size))
            _ = ioctl(descriptor, UInt(FIONREAD), &count)
            _ = mallopt(-1, 512 << 20)
            var actions = posix_spawn_file_actions_t()
            getrusage(RUSAGE_SELF.rawValue, &usage)
            SocketOptions.setTimeouts(descriptor, receive: 1)

            """.write(toFile: file, atomically: true, encoding: .utf8)
        let found = try Self.findings(in: [file], patterns: Self.widthSensitiveCalls)
        #expect(found.map { $0.split(separator: ":")[1] } == ["1", "2", "3", "4", "5", "6"])
    }
}
