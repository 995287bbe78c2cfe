import Synchronization
import Testing
@testable import Lanes
import Foundation
import LanesPlatform

/// Findings 13 and 14 of issue 10: nothing a step started outlives it when the lane is cancelled,
/// and output lines of any length keep the real exit status.
@Suite struct ProcessHardeningTests {
    @Test func aLineLongerThanAnyBufferKeepsTheExitStatusAndAllItsBytes() async throws {
        let lines = LineCollector()
        let outcome = try await SubprocessRunner(baseEnvironment: ProcessEnvironmentForTests.current).run(
            ProcessRequest(["sh", "-c", "head -c 300000 /dev/zero | tr '\\\\0' x; echo; echo after; exit 3"])
        ) { lines.append($0) }
        #expect(outcome.termination == .exited(3))
        let collected = lines.lines
        #expect(collected.last == "after")
        #expect(collected.dropLast().joined().count == 300_000)
        #expect(collected.count > 2, "the long line came in pieces")
    }

    @Test func cancellingAStepEndsItsGrandchildren() async throws {
        let grandchild = Mutex<pid_t?>(nil)
        let runner = SubprocessRunner(baseEnvironment: ProcessEnvironmentForTests.current)
        let task = Task {
            try await runner.run(ProcessRequest(["sh", "-c", "sleep 60 & echo $!; wait"])) { line in
                grandchild.withLock { $0 = pid_t(line) }
            }
        }
        var waited = 0
        while grandchild.withLock({ $0 }) == nil, waited < 100 {
            try await Task.sleep(for: .milliseconds(50))
            waited += 1
        }
        let pid = try #require(grandchild.withLock { $0 })
        #expect(isRunning(pid))
        task.cancel()
        _ = try? await task.value
        var checks = 0
        while isRunning(pid), checks < 100 {
            try await Task.sleep(for: .milliseconds(50))
            checks += 1
        }
        #expect(!isRunning(pid), "sleep \(pid) outlived the cancelled step")
    }

    /// Alive and not a zombie (an orphan may wait to be reaped by a container's init).
    private func isRunning(_ pid: pid_t) -> Bool {
        guard kill(pid, 0) == 0 else { return false }
        guard let stat = try? String(contentsOfProcFile: "/proc/\(pid)/stat") else { return false }
        guard let close = stat.lastIndex(of: ")") else { return false }
        return !stat[stat.index(close, offsetBy: 2)...].hasPrefix("Z")
    }
}

@Suite struct LineSplitterTests {
    @Test func aSecretAcrossAPieceBoundaryIsNeverCut() {
        let secret = "S3CRET-TOKEN-VALUE"
        let redactor = Redactor(secrets: [secret])
        for offset in 0..<40 {
            var splitter = LineSplitter(longestLine: 64, holdBack: { redactor.longestSecretLength })
            let line = String(repeating: "a", count: 40 + offset) + secret + String(repeating: "b", count: 100)
            var shown: [String] = []
            Array((line + "\n").utf8).withUnsafeBytes { bytes in
                splitter.feed(bytes) { shown.append(redactor.redact($0)) }
            }
            #expect(!shown.joined().contains("S3CRET"), "offset \(offset)")
            #expect(!shown.contains { $0.contains("VALUE") || $0.contains("TOKEN") }, "offset \(offset)")
        }
    }

    @Test func crlfAndMissingFinalLineEnd() {
        var splitter = LineSplitter(holdBack: { 0 })
        var lines: [String] = []
        Array("one\r\ntwo\nthree".utf8).withUnsafeBytes { splitter.feed($0) { lines.append($0) } }
        splitter.finish { lines.append($0) }
        #expect(lines == ["one", "two", "three"])
    }
}

enum ProcessEnvironmentForTests {
    static var current: [String: String] {
        var result: [String: String] = [:]
        var pointer = ProcessEnvironment.block
        while let entry = pointer.pointee {
            let text = String(cString: entry)
            if let equals = text.firstIndex(of: "=") {
                result[String(text[..<equals])] = String(text[text.index(after: equals)...])
            }
            pointer += 1
        }
        return result
    }
}

extension String {
    init(contentsOfProcFile path: String) throws {
        guard let file = fopen(path, "r") else { throw LanesError(.environment, "cannot open \(path)") }
        defer { fclose(file) }
        var bytes: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while true {
            let count = fread(&buffer, 1, buffer.count, file)
            if count <= 0 { break }
            bytes.append(contentsOf: buffer[0..<count])
        }
        self = String(decoding: bytes, as: UTF8.self)
    }
}
